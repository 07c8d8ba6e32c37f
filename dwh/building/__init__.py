"""`dwh build` and what it stands on: dbt build (build.py) with its plan (build_plan.py), vars
(build_vars.py), progress (build_progress.py), the seeds' failing rows (seed_checks.py) and the marts
a selection leaves stale (staleness.py); the atomic publish every writer uses (publish.py); which
build the marts come from (freshness.py); and `dwh docs` (docs.py), dbt's page of the build."""
