"""A sensor on the question file (briefs/questions.yaml, or RECON_QUESTIONS_FILE): when its content changes (its
SHA-256 is the cursor), each accepted question whose id is not yet a partition of `questions` is added with a run of
`question_briefs_job` requested for it, and each partition whose id the file no longer holds is removed, except the
ad-hoc `ask-<hash>` ones (`recon ask` adds them; the user removes them). Rejected entries are logged with their
reasons; the others are kept. Stopped by default, as the other sensors.
"""

import hashlib

import dagster as dg

from recon_assets.automation.jobs import question_briefs_job
from recon_assets.briefs.partitions import QUESTIONS_PARTITIONS, QuestionFileResource, question_partitions
from recon_assets.briefs.questions import ASKED_PREFIX, QuestionFileError

MINIMUM_INTERVAL_SECONDS = 60


@dg.sensor(
    job=question_briefs_job, minimum_interval_seconds=MINIMUM_INTERVAL_SECONDS, default_status=dg.DefaultSensorStatus.STOPPED,
    description="Adds and removes questions partitions as the question file changes, and requests a brief for each new question.",
)
def question_file_sensor(context: dg.SensorEvaluationContext, questions: QuestionFileResource):
    """Read the question file; when its SHA-256 differs from the cursor, add the new questions' partitions (one run
    each, run key question/<id>/<sha>) and remove those of questions it no longer holds (never ask-<hash>); log each
    rejected entry with its reason. A file that cannot be read as a whole is skipped, saying why, and retried."""
    try:
        text = questions.text()
        read = questions.read()
    except (OSError, QuestionFileError) as error:
        return dg.SkipReason(f"the question file {questions.where()} cannot be read: {error}")
    digest = hashlib.sha256(text.encode()).hexdigest()
    if context.cursor == digest:
        return dg.SkipReason(f"the question file {questions.where()} has not changed")
    for entry in read.rejected:
        context.log.warning(f"question file entry {entry.index} (id {entry.id!r}) rejected: {entry.reason}")
    known = set(context.instance.get_dynamic_partitions(QUESTIONS_PARTITIONS))
    accepted = [question.id for question in read.accepted]
    new = [key for key in accepted if key not in known]
    gone = sorted(key for key in known if key not in accepted and not key.startswith(ASKED_PREFIX))
    context.log.info(f"question file version {read.version}: {len(accepted)} accepted, {len(read.rejected)} rejected; "
                     f"adding {new or 'none'}, removing {gone or 'none'}")
    requests = ([question_partitions.build_add_request(new)] if new else []) + ([question_partitions.build_delete_request(gone)] if gone else [])
    return dg.SensorResult(
        run_requests=[dg.RunRequest(run_key=f"question/{key}/{digest[:12]}", partition_key=key) for key in new],
        dynamic_partitions_requests=requests, cursor=digest,
    )
