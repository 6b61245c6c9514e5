"""The LLM judge benchmark (benchmarks/llm_judge.py) at a tiny size: it runs and counts right. Its speed is
printed by the script, never asserted here."""

from benchmarks.llm_judge import main


def test_llm_benchmark_runs_and_a_rerun_asks_nothing(capsys):
    figures = main(["--pairs", "20", "--pairs-per-request", "8"])
    assert figures["client_requests"] == 3 and figures["first_run_requests"] == 3
    assert figures["first_run_judged"] == 20 and figures["cached_run_judged"] == 20
    assert figures["cached_run_requests"] == 0
    assert "pairs/s" in capsys.readouterr().out
