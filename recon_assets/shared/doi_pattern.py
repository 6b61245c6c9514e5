"""The canonical DOI form: the one pattern every canonical DOI key matches. `kg.doi.canonical_doi` normalises a raw
value to it, and the DOI quality suite (`shared.quality`) checks stored keys against it, so the two never disagree
on what a canonical DOI is. Kept here, below both, with no import: `recon explain` reads DOIs at start-up.

Prefix: "10." and a registrant code of 4-9 ASCII digits (Crossref, "DOIs and matching regular expressions", 2015)
with optional ".<digits>" subdivisions; a digit of another script (U+FF11 fullwidth, U+0661 Arabic-Indic) is not
a DOI prefix. Suffix: any character but whitespace and controls (DOI Handbook ch. 2 "Numbering"; ANSI/NISO
Z39.84-2005), wider than Crossref's recommended class so that old SICI DOIs such as
10.1175/1520-0442(2001)014<0203:abcd>2.0.co;2 stay whole; no ASCII upper case, because the key is lower-cased (DOI
names are case-insensitive, DOI Handbook section 2.4); no control character (C0, DEL, C1: pasted noise, never part
of a DOI). `\\Z`, not `$`, which would accept a trailing newline.
"""

CANONICAL_DOI_PATTERN = r"^10\.[0-9]{4,9}(?:\.[0-9]+)*/[^\sA-Z\x00-\x1f\x7f-\x9f]+\Z"
