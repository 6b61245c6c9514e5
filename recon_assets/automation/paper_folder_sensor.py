"""A sensor watching the papers folder (RECON_PAPERS_DIR; default `papers/` beside the database): each PDF in it is
hashed, and a SHA-256 that is not yet a partition of `papers` is added as one, with a run of `paper_analysis_job`
requested for it. A renamed file keeps its key (nothing to do); a changed file is a new key (a new paper). Stopped by
default, as the other sensor.
"""

import dagster as dg

from recon_assets.automation.jobs import paper_analysis_job
from recon_assets.papers.partitions import PAPER_SOURCE_TAG, PAPERS_PARTITIONS, paper_partitions
from recon_assets.papers.resources import PaperIntake
from recon_assets.shared.credentials import redact

# Seconds between two looks: every PDF of the folder is hashed at each look (about 1 s per GB).
MINIMUM_INTERVAL_SECONDS = 30


@dg.sensor(
    job=paper_analysis_job, minimum_interval_seconds=MINIMUM_INTERVAL_SECONDS, default_status=dg.DefaultSensorStatus.STOPPED,
    description="Adds a papers partition for each new PDF (by SHA-256) in the papers folder and requests its analysis.",
)
def paper_folder_sensor(context: dg.SensorEvaluationContext, papers: PaperIntake):
    """Hash the papers folder's PDFs; add the new keys as partitions and request one run each (run key paper/<key>,
    tagged with the file); skip, saying so, when every PDF is already a partition or the folder holds none."""
    found = papers.pdfs()
    known = set(context.instance.get_dynamic_partitions(PAPERS_PARTITIONS))
    new = sorted(key for key in found if key not in known)
    if not new:
        return dg.SkipReason(redact(f"no new PDF in {papers.folder} ({len(found)} PDFs, each already a paper)"))
    return dg.SensorResult(
        run_requests=[
            dg.RunRequest(run_key=f"paper/{key}", partition_key=key, tags={PAPER_SOURCE_TAG: str(found[key])}) for key in new
        ],
        dynamic_partitions_requests=[paper_partitions.build_add_request(new)],
    )
