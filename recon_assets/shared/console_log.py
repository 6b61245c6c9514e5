"""The console logger of every run: Dagster's colored console logger (`dg.colored_console_logger`), which can keep the
records of a failure off the console (`recon run` without --verbose says the failure's cause in one line instead)."""

from __future__ import annotations

import logging

import dagster as dg


class _NoFailureRecords(logging.Filter):
    """Drops records of level ERROR and above: a step's failure with its stack trace, the steps skipped after it,
    the run's failure (Dagster logs each as one multi-line record)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.levelno < logging.ERROR


@dg.logger(
    {
        "log_level": dg.Field(str, is_required=False, default_value="INFO", description="The logger's threshold."),
        "name": dg.Field(str, is_required=False, default_value="dagster", description="The name of the logger."),
        "failures": dg.Field(
            bool, is_required=False, default_value=True,
            description="Print the records of a failure (ERROR and above) with their stack traces; False leaves them "
            "to the run's event log and the caller's one-line summary (`recon run` without --verbose).",
        ),
    },
    description="Dagster's colored console logger, whose failure records can be left out (`failures`).",
)
def console_logger(init_context: dg.InitLoggerContext) -> logging.Logger:
    """Dagster's colored console logger with `log_level` and `name`; without `failures`, no record of ERROR or above
    reaches the console (the run's event log keeps them all)."""
    logger = dg.colored_console_logger.logger_fn(init_context)
    if not init_context.logger_config["failures"]:
        for handler in logger.handlers:
            handler.addFilter(_NoFailureRecords())
    return logger
