"""The `reporting` group: the run's reliability report, an HTML page and its PDF beside the DuckDB file."""

import dagster as dg

from recon_assets.declarations import ASSET_TABLES
from recon_assets.kg.assets import OWNERS
from recon_assets.reliability.labels import LABELS
from recon_assets.report.data import gather_report
from recon_assets.report.render import REPORT_SUFFIXES, write_report
from recon_assets.shared.as_of import AsOfDate
from recon_assets.shared.metadata import database_file
from recon_assets.storage.output_files import REPORT_OUTPUT, REPORTS
from recon_assets.storage.duckdb_store import TableStore
from recon_assets.storage.outputs import OutputFiles


@dg.asset(
    **ASSET_TABLES["reliability_report"].asset_arguments(),
    group_name="reporting", kinds={"duckdb", "html", "pdf"}, owners=OWNERS, pool="duckdb",
)
def reliability_report(
    context: dg.AssetExecutionContext, store: TableStore, outputs: OutputFiles, as_of: AsOfDate
) -> dg.MaterializeResult:
    """The run's reliability report, a self-contained HTML page and its PDF in `report_folder` (`reports/<database
    file name>/` beside the DuckDB file: `reliability_report_<as_of>_<run>.html` / `.pdf`, and
    `reliability_report_latest.*`; the reports of runs beyond the newest and RECON_KEEP_OUTPUTS earlier ones removed,
    `storage.output_files`): labels per research area, the reliability histogram, the STALE and CONTRADICTED dataset
    verdicts with why, the most central SUPERSEDED edges, the evaluation's rates against their base rate, and the run's
    lineage (KG snapshot, as_of, scoring settings, judges, verdict rules)."""
    keep = outputs.earlier_runs_kept()  # a bad RECON_KEEP_OUTPUTS stops the step before anything is read or written
    folder = outputs.folder(REPORTS)
    with store.connect() as con:
        data = gather_report(con, as_of=as_of.for_run(context), run_id=context.run.run_id)
        database = database_file(con)
    files = write_report(data, folder)
    pruned = outputs.prune(context, folder, REPORT_OUTPUT, keep, current=files.stem, suffixes=REPORT_SUFFIXES)
    labels = data.label_counts.groupby("label")["edges"].sum()
    context.log.info(f"reliability report written: {files.html} and {files.pdf} ({files.pdf_pages} pages)")
    return dg.MaterializeResult(metadata={
        "database": database,
        "html": dg.MetadataValue.path(str(files.html)),
        "pdf": dg.MetadataValue.path(str(files.pdf)),
        "latest_html": dg.MetadataValue.url(files.latest_html.as_uri()),
        "latest_pdf": dg.MetadataValue.url(files.latest_pdf.as_uri()),
        **{f"figure_{name}": dg.MetadataValue.path(str(path)) for name, path in files.figures.items()},
        "as_of": data.as_of.isoformat(),
        "pdf_pages": files.pdf_pages,
        "html_bytes": files.html.stat().st_size,
        "edges": int(labels.sum()),
        **{f"edges_{label}": int(labels.get(label, 0)) for label in LABELS},
        **{f"verdicts_{verdict}": count for verdict, count in data.verdict_counts.items()},
        "superseded_edges": data.superseded_total,
        "earlier_runs_kept": keep,
        "earlier_runs_removed": len(pruned.runs),
    })
