"""The run's reliability report, a page a person would rather look at than read: `data` gathers its figures from the
final tables (SQL in `sql/report_*.sql`), `figures` draws the plots (matplotlib, one colour per label defined once),
`render` writes the self-contained HTML page (Jinja2, every KG or OpenAlex text autoescaped) and its PDF
(ReportLab). `assets` is the Dagster wiring."""

from pathlib import Path

from recon_assets.storage.output_files import REPORTS, output_folder


def report_folder(database: Path) -> Path:
    """Where the reports of the DuckDB file `database` go: `<its folder>/reports/<its file name>/`
    (data/recon.duckdb -> data/reports/recon.duckdb/; `storage.output_files.output_folder`), links resolved."""
    return output_folder(database, REPORTS)
