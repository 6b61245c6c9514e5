"""The run's reliability report, a page a person would rather look at than read: `data` gathers its figures from the
final tables (SQL in `sql/report_*.sql`), `figures` draws the plots (matplotlib, one colour per label defined once),
`render` writes the self-contained HTML page (Jinja2, every KG or OpenAlex text autoescaped) and its PDF
(ReportLab). `assets` is the Dagster wiring."""
