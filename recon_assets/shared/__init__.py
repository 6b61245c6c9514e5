"""Helpers every domain uses, none of them science: DuckDB table writes (`storage`), the SQL files (`sql_files`),
materialization metadata (`metadata`), where files live (`paths`), text safe to show (`display`), the secrets
(`credentials`), a total deadline for one HTTP request (`deadlines`) and the Great Expectations suites
(`quality`)."""
