"""A documented size times `dwh sample --scale`, which may be a fraction (0.1 for a quick try)."""


def scaled(count: int, scale: float, minimum: int = 1) -> int:
    """`count` times `scale`, rounded, and at least `minimum` (a sample keeps every folder and file)."""
    return max(minimum, round(count * scale))
