"""Stand-ins for Groq at the HTTP transport (respx), serving the real shapes in fixtures/groq (PROVENANCE.md).

`FakeGroq` is a respx side effect for `POST <base>/openai/v1/chat/completions`: it records every request and
answers from a queue of scripted replies (`queue`), else with `reader_answer`: a deterministic stand-in model
that reads each pair's fenced newer abstract and answers on DOMAIN.md's scale, quoting the sentence holding the
wording it went by (the first sentence when none).
It is not a language model: tests use it to check the plumbing, never to measure judging.
"""

from __future__ import annotations

import copy
import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from recon_assets.judgement.llm_prompt import PairTexts

FIXTURES = Path(__file__).parent / "fixtures" / "groq"
BASE_URL = "https://groq.fake.test"
COMPLETIONS = f"{BASE_URL}/openai/v1/chat/completions"
_BLOCK = re.compile(r"^PAIR (\d+)$", re.MULTILINE)
_NEWER = re.compile(r"<<<DATA pair-(\d+)-newer>>>\nTitle: .*\nAbstract: (.*)\n<<<END DATA pair-\1-newer>>>")


def fixture(name: str) -> dict:
    return json.loads((FIXTURES / name).read_text())


def rate_limit_headers(**overrides: str) -> dict[str, str]:
    """The documented x-ratelimit-* headers (without retry-after unless given), with `overrides` (underscores
    for dashes: remaining_requests="0")."""
    headers = {name: value for name, value in fixture("rate_limit_headers.json").items() if name != "retry-after"}
    for name, value in overrides.items():
        headers[name.replace("_", "-") if name.startswith("retry") else f"x-ratelimit-{name.replace('_', '-')}"] = value
    return headers


def completion(content: str | None, *, model: str, prompt_tokens: int = 900, completion_tokens: int = 300,
               finish_reason: str = "stop", completion_id: str = "chatcmpl-f51b2cd2-bef7-417e-964e-a08f0b513c22") -> dict:
    """The recorded success envelope (chat_completion.json) carrying `content` and these usage figures."""
    body = copy.deepcopy(fixture("chat_completion.json"))
    body["id"], body["model"] = completion_id, model
    body["choices"][0]["message"]["content"] = content
    body["choices"][0]["finish_reason"] = finish_reason
    body["usage"].update(prompt_tokens=prompt_tokens, completion_tokens=completion_tokens, total_tokens=prompt_tokens + completion_tokens)
    return body


def request_json(request: httpx.Request) -> dict:
    return json.loads(request.content)


def pair_indices(request: httpx.Request) -> list[int]:
    """The pair indices a request's user message holds."""
    return [int(index) for index in _BLOCK.findall(request_json(request)["messages"][1]["content"])]


def newer_abstracts(request: httpx.Request) -> dict[int, str]:
    """Pair index -> the newer abstract as sent (inside its fence)."""
    return {int(index): text for index, text in _NEWER.findall(request_json(request)["messages"][1]["content"])}


def reader_entry(index: int, abstract: str) -> dict:
    """The stand-in model's entry for one pair: its verdict from wording in q's abstract, quoting the sentence that
    holds the wording (the first sentence when none)."""
    sentences = [sentence.strip() for sentence in abstract.split(". ")]
    words = {"CONTRADICTED": ("contradict", "overestimat"), "SUPERSEDED": ("replace",), "SUPPORTED": ("refine",)}
    said = next(((verdict, word) for verdict, options in words.items() for word in options if word in abstract.lower()), None)
    if abstract == "(none)":
        return {"index": index, "verdict": "UNVERIFIED", "coherence": 0.5, "rationale": "The newer abstract is missing.", "evidence": []}
    verdict, word = said or ("SUPPORTED", None)
    coherence = {"CONTRADICTED": 0.1, "SUPERSEDED": 0.3, "SUPPORTED": 0.7 if word else 1.0}[verdict]
    sentence = next((sentence for sentence in sentences if word and word in sentence.lower()), sentences[0])
    return {"index": index, "verdict": verdict, "coherence": coherence,
            "rationale": f"The newer paper's abstract reads as {verdict.lower()}.", "evidence": [sentence]}


def reader_answer(request: httpx.Request) -> str:
    """The stand-in model's whole answer (JSON text) for a request."""
    abstracts = newer_abstracts(request)
    return json.dumps({"judgements": [reader_entry(index, abstracts[index]) for index in pair_indices(request)]})


@dataclass
class FakeGroq:
    """respx side effect (module docstring). `queue` holds scripted replies, used first: an httpx.Response,
    an exception to raise, or a callable(request) -> httpx.Response."""

    queue: list = field(default_factory=list)
    requests: list[httpx.Request] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=rate_limit_headers)
    # Usage like Llama 3's tokenizer on English: about 4 bytes of prompt a token, about 120 tokens an entry.
    bytes_per_token: float = 4.0
    tokens_per_entry: int = 120

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        if self.queue:
            reply = self.queue.pop(0)
            if isinstance(reply, BaseException):
                raise reply
            return reply(request) if callable(reply) else reply
        return self.ok(request)

    def ok(self, request: httpx.Request, content: str | None = None, **usage) -> httpx.Response:
        """A 200 with the stand-in model's answer (or `content`), echoing the requested model."""
        prompt_bytes = sum(len(message["content"].encode()) for message in request_json(request)["messages"])
        body = completion(
            reader_answer(request) if content is None else content, model=request_json(request)["model"],
            prompt_tokens=usage.get("prompt_tokens", math.ceil(prompt_bytes / self.bytes_per_token)),
            completion_tokens=usage.get("completion_tokens", self.tokens_per_entry * len(pair_indices(request))),
            completion_id=f"chatcmpl-fake-{len(self.requests)}",
        )
        return httpx.Response(200, json=body, headers=self.headers)


def error(status: int, name: str, headers: dict[str, str] | None = None) -> httpx.Response:
    """An error response with the recorded body `name` (fixtures/groq)."""
    return httpx.Response(status, json=fixture(name), headers=headers or {})


def answer(content: str | None, **usage) -> Callable[[httpx.Request], httpx.Response]:
    """A scripted 200 whose message content is `content` (None: a null content)."""
    def reply(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json=completion(content, model=request_json(request)["model"], **usage))
    return reply


class FakeClock:
    """A monotonic clock that `sleep` advances; `sleeps` lists every wait asked for."""

    def __init__(self) -> None:
        self.now = 1_000.0
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


ABSTRACTS = [
    "GRACE gravimetry shows that the Greenland Ice Sheet lost 230 Gt of ice per year between 2003 and 2012. Losses accelerated in the northwest.",
    "Our reanalysis contradicts the reported acceleration of Greenland mass loss. Glacial isostatic adjustment was underestimated before.",
    "The earlier mascon product for Greenland is replaced by a new gridded product. It resolves outlet glaciers at 25 km.",
    "We refine earlier mass balance estimates for Greenland with an improved glacial isostatic adjustment model. The trend changes by 5 percent.",
    "MODIS aerosol optical depth over the Indo-Gangetic Plain rose by 2 percent a year from 2000 to 2010. Winter haze dominates.",
    "Ground-based AERONET retrievals confirm the MODIS aerosol trend over the Indo-Gangetic Plain. Agreement is within 0.05.",
    "Soil moisture from SMAP explains 40 percent of the variance in crop yield anomalies in Iowa. Drought years dominate.",
    "SMAP soil moisture anomalies precede yield losses by six weeks, consistent with the earlier yield analysis. This supports early warning from satellite data.",
]


def make_pairs(count: int, *, injection: str | None = None) -> list[PairTexts]:
    """`count` pairs built from ABSTRACTS (older = even, newer = next); `injection` is appended to pair 0's older abstract."""
    pairs = []
    for index in range(count):
        older = ABSTRACTS[(2 * index) % len(ABSTRACTS)]
        newer = ABSTRACTS[(2 * index + 1) % len(ABSTRACTS)]
        if index == 0 and injection:
            older = f"{older} {injection}"
        pairs.append(PairTexts(
            dataset=f"GRCTellus.JPL.200204_202311.GLO.RL06.1M.MSCNv03 (dataset {index})", older_title=f"Older study {index}",
            older_abstract=older, older_year=2013, newer_title=f"Newer study {index}", newer_abstract=newer, newer_year=2016,
        ))
    return pairs
