-- How the rejects' reasons show values and scales, the same for the judges' files
-- (ingest/sql/judges/) and the datasets' (ingest/sql/datasets/): run before their checks.

-- a value as the reasons show it: in single quotes
create or replace temp macro quoted(text) as '''' || text || '''';

-- a number as the reasons show it: a whole number without a fraction
create or replace temp macro number_text(number) as
    if(number = round(number), round(number)::bigint::varchar, number::varchar);

-- a scale as the reasons show it: `from 1 to 5`, `of at least 0`, or nothing where it has no bounds
create or replace temp macro scale_text(lowest, highest) as
    case
        when lowest is not null and highest is not null
            then ' from ' || number_text(lowest) || ' to ' || number_text(highest)
        when lowest is not null then ' of at least ' || number_text(lowest)
        when highest is not null then ' of at most ' || number_text(highest)
        else ''
    end;

-- a field without its leading and trailing blanks (spaces, tabs, line ends): how a judges file's
-- and a dataset's ids are taken ('gpt ' is 'gpt', 'u1 ' is 'u1')
create or replace temp macro stripped(text) as trim(text, ' ' || chr(9) || chr(10) || chr(13));
