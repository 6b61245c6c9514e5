"""The run's reliability report, a page a person would rather look at than read: `data` gathers its figures from the
final tables (SQL in `sql/report_*.sql`), `figures` draws the plots (matplotlib, one colour per label defined once),
`render` writes the self-contained HTML page (Jinja2, every KG or OpenAlex text autoescaped) and its PDF
(ReportLab). `assets` is the Dagster wiring."""

from pathlib import Path

from recon_assets.shared.paths import database_outputs


def report_folder(database: Path) -> Path:
    """Where the reports of the DuckDB file `database` go: `<its folder>/reports/<its name without suffix>/`
    (data/recon.duckdb -> data/reports/recon/; `shared.paths.database_outputs`), links resolved."""
    return database_outputs(database.resolve(), "reports")
