"""``trncodemod campaign report DIR``: the fleet on one page, for people and for tools.

Writes ``DIR/report.html`` (self-contained: inline CSS, script and SVG, nothing fetched), its
Markdown twin ``DIR/report.md``, and ``DIR/report.sarif``, every repository's findings in one
SARIF log. The page has the fleet table (sortable by any column, filtered by text and status),
a chart of findings and blockers by rule across the fleet, and a section per repository with
its description and its patch, highlighted. The table's data is also embedded as JSON
(``<script type="application/json" id="fleet-data">``) for tools that read the page.

Everything the report did not write itself is escaped, in HTML and in Markdown: a result.json
can be edited by hand and a repository chooses its file names and code, so any value, of any
JSON type, is text. A repository's files are read only from its own folder under DIR (named by
the folder, never by the result's ``name``), and nothing in the page loads anything: Markdown
images are not rendered.
"""

from __future__ import annotations

import datetime
import html
import json
import os
import re
import stat
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path

from trncodemod.campaign.results import ResultStore, write_atomic
from trncodemod.campaign.spec import REPORT_NAMES
from trncodemod.campaign.task import ARTIFACTS, FAILED
from trncodemod.output.markdown import fence, plain

HTML_NAME, MARKDOWN_NAME, SARIF_NAME = REPORT_NAMES
CHART_RULES = 30  # the rules with the most blockers, then findings; the rest are in the table


@dataclass(frozen=True)
class Row:
    """One repository in the fleet table."""

    name: str
    status: str
    files_changed: int
    fixes: int
    review_fixes: int
    blockers: int
    findings_left: int
    verify: str
    duration_s: float
    reason: str


@dataclass(frozen=True)
class RuleTotal:
    code: str
    name: str
    findings: int
    blockers: int
    repositories: int


def fleet_rows(results: list[dict]) -> list[Row]:
    rows = []
    for result in results:
        counts = _mapping(result.get("counts"))
        total = _mapping(result.get("timings")).get("total", 0.0)
        rows.append(
            Row(
                name=result["name"],
                status=result["status"],
                files_changed=_count(counts.get("changed")),
                fixes=_count(counts.get("fixed")),
                review_fixes=_count(counts.get("review")),
                blockers=_count(counts.get("blockers")),
                findings_left=_count(counts.get("remaining")),
                verify=_text(_mapping(result.get("verify")).get("verdict", "not run")),
                duration_s=round(total, 2) if isinstance(total, int | float) else 0.0,
                reason=_text(result.get("reason") or ""),
            )
        )
    return rows


def _mapping(value: object) -> dict:
    return value if isinstance(value, dict) else {}


def _text(value: object) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def rule_totals(results: list[dict]) -> list[RuleTotal]:
    from trncodemod.rules import rule_by_code

    findings: Counter = Counter()
    blockers: Counter = Counter()
    repositories: Counter = Counter()
    for result in results:
        rules = result.get("rules")
        for code, numbers in (rules if isinstance(rules, dict) else {}).items():
            numbers = numbers if isinstance(numbers, dict) else {}
            findings[code] += _count(numbers.get("findings"))
            blockers[code] += _count(numbers.get("blockers"))
            repositories[code] += 1
    totals = [
        RuleTotal(
            code,
            rule.name if (rule := rule_by_code(code)) else "",  # None for a code not ours
            findings[code],
            blockers[code],
            repositories[code],
        )
        for code in findings
    ]
    return sorted(totals, key=lambda t: (-t.blockers, -t.findings, t.code))


def fleet_state(rows: list[Row]) -> list[str]:
    """The sentences that name what blocks and what failed, as the terminal summary does."""
    blocked = [f"{row.name} ({row.blockers})" for row in rows if row.blockers]
    failed = [f"{row.name} ({row.status})" for row in rows if row.status in FAILED]
    lines = []
    if blocked:
        lines.append(
            f"Blockers left (the program will not run on the accelerator): {', '.join(blocked)}."
        )
    if failed:
        lines.append(f"Failed: {', '.join(failed)}.")
    return lines


def _chart(totals: list[RuleTotal]) -> str:
    """Horizontal bars, one row a rule: findings (blue) with the blockers among them (red)."""
    shown = totals[:CHART_RULES]
    if not shown:
        return '<p class="empty">No findings across the fleet.</p>'
    top = max(t.findings for t in shown)
    label_w, bar_w, row_h = 250, 420, 20
    height = row_h * len(shown) + 30
    parts = [
        f'<svg id="rule-chart" role="img" xmlns="http://www.w3.org/2000/svg" '
        f'width="{label_w + bar_w + 90}" height="{height}" '
        f'aria-label="Findings and blockers by rule across the fleet">'
    ]
    for index, total in enumerate(shown):
        y = index * row_h + 4
        width = bar_w * total.findings / top
        blocked = bar_w * total.blockers / top
        label = html.escape(f"{total.code} {total.name}")
        tip = html.escape(
            f"{total.code} {total.name}: {total.findings} finding(s), {total.blockers} blocker(s), "
            f"in {total.repositories} repositor{'ies' if total.repositories != 1 else 'y'}"
        )
        parts.append(
            f'<g class="rule" data-rule="{html.escape(total.code)}"><title>{tip}</title>'
            f'<text x="{label_w - 6}" y="{y + 13}" text-anchor="end">{label}</text>'
            f'<rect class="bar-findings" x="{label_w}" y="{y}" width="{width:.1f}" height="15"/>'
            + (
                f'<rect class="bar-blockers" x="{label_w}" y="{y}" width="{blocked:.1f}" '
                'height="15"/>'
                if total.blockers
                else ""
            )
            + f'<text x="{label_w + width + 6:.1f}" y="{y + 13}">{total.findings}'
            + (f" ({total.blockers} blocking)" if total.blockers else "")
            + "</text></g>"
        )
    legend_y = row_h * len(shown) + 14
    parts.append(
        f'<g class="legend"><rect class="bar-findings" x="{label_w}" y="{legend_y}" '
        f'width="12" height="12"/><text x="{label_w + 16}" y="{legend_y + 11}">findings</text>'
        f'<rect class="bar-blockers" x="{label_w + 90}" y="{legend_y}" width="12" height="12"/>'
        f'<text x="{label_w + 106}" y="{legend_y + 11}">blockers</text></g></svg>'
    )
    return "".join(parts)


_COLUMNS = (
    ("name", "repository"),
    ("status", "status"),
    ("files_changed", "files changed"),
    ("fixes", "fixes"),
    ("review_fixes", "review-class fixes"),
    ("blockers", "blockers"),
    ("findings_left", "findings left"),
    ("verify", "verify"),
    ("duration_s", "duration (s)"),
)

_STYLE = """
body{font:14px/1.45 system-ui,sans-serif;margin:2em;color:#1b1f24;max-width:1200px}
h1{font-size:1.6em}h2{margin-top:2em;border-bottom:1px solid #d0d7de}
table{border-collapse:collapse;width:100%}th,td{padding:4px 8px;border-bottom:1px solid #e5e8eb;
text-align:left}th{cursor:pointer;background:#f6f8fa;user-select:none}td.n{text-align:right}
th[aria-sort=ascending]::after{content:" \\25B2"}th[aria-sort=descending]::after{content:" \\25BC"}
tr.failed td{background:#fff1f0}tr.blocked td:first-child{border-left:3px solid #cf222e}
.status{font-weight:600}.controls{margin:1em 0;display:flex;gap:1em;align-items:center}
svg text{font:12px system-ui,sans-serif;fill:#1b1f24}.bar-findings{fill:#54aeff}
.bar-blockers{fill:#cf222e}details{margin:.5em 0 1.5em}summary{cursor:pointer;font-weight:600}
.description{border-left:3px solid #d0d7de;padding-left:1em}.reason{color:#cf222e}
.highlight{overflow:auto;font-size:12px;border:1px solid #d0d7de;padding:.5em;max-height:40em}
"""

_SCRIPT = """
(function(){
  const table=document.getElementById('fleet'), body=table.tBodies[0];
  const text=document.getElementById('filter'), status=document.getElementById('status');
  const shown=document.getElementById('shown');
  function apply(){
    const q=text.value.toLowerCase(), s=status.value; let n=0;
    for(const row of body.rows){
      const ok=(!q||row.textContent.toLowerCase().includes(q))&&
        (!s||row.dataset.status===s||(s==='blocked'&&row.classList.contains('blocked'))||
         (s==='failed'&&row.classList.contains('failed')));
      row.hidden=!ok; if(ok) n++;
    }
    shown.textContent=n+' of '+body.rows.length+' repositories shown';
  }
  function sort(th){
    const i=th.cellIndex, dir=th.getAttribute('aria-sort')==='ascending'?-1:1;
    for(const h of table.tHead.rows[0].cells) h.removeAttribute('aria-sort');
    th.setAttribute('aria-sort',dir===1?'ascending':'descending');
    const rows=[...body.rows].sort((a,b)=>{
      const x=a.cells[i].dataset.value, y=b.cells[i].dataset.value;
      const d=(x!==''&&y!==''&&!isNaN(x)&&!isNaN(y))?x-y:x.localeCompare(y);
      return d*dir;
    });
    rows.forEach(r=>body.appendChild(r));
  }
  for(const th of table.tHead.rows[0].cells) th.addEventListener('click',()=>sort(th));
  text.addEventListener('input',apply); status.addEventListener('change',apply);
  const hash=new URLSearchParams(location.hash.slice(1));
  if(hash.get('q')) text.value=hash.get('q');
  if(hash.get('status')) status.value=hash.get('status');
  if(hash.get('sort')){const th=table.querySelector('th[data-key="'+hash.get('sort')+'"]');
    if(th){sort(th); if(hash.get('order')==='desc') sort(th);}}
  apply();
  document.body.dataset.ready='1';
})();
"""


def _cell(key: str, value: object) -> str:
    shown = html.escape(str(value))
    numeric = ' class="n"' if isinstance(value, int | float) else ""
    return f'<td{numeric} data-value="{html.escape(str(value), quote=True)}">{shown}</td>'


def _row_html(row: Row) -> str:
    classes = []
    if row.status in FAILED:
        classes.append("failed")
    if row.blockers:
        classes.append("blocked")
    cells = []
    for key, _ in _COLUMNS:
        value = getattr(row, key)
        if key == "name":
            name = html.escape(row.name)
            cells.append(f'<td data-value="{name}"><a href="#repo-{name}">{name}</a></td>')
        elif key == "status" and row.reason:  # why it failed, on hovering
            status, reason = html.escape(row.status), html.escape(row.reason, quote=True)
            cells.append(f'<td data-value="{status}" title="{reason}">{status}</td>')
        else:
            cells.append(_cell(key, value))
    return (
        f'<tr class="{" ".join(classes)}" data-status="{html.escape(row.status)}">'
        + "".join(cells)
        + "</tr>"
    )


def _repository_html(result: dict, folder: Path) -> str:
    from markdown_it import MarkdownIt
    from pygments import highlight
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import DiffLexer

    name = _escaped(result["name"])
    parts = [f'<section id="repo-{name}"><h3>{name}</h3>']
    inputs = result.get("inputs") if isinstance(result.get("inputs"), dict) else {}
    facts = [
        f"status <b>{_escaped(result['status'])}</b>",
        f"URL <code>{_escaped(result.get('url', ''))}</code>",
    ]
    if inputs.get("commit"):
        facts.append(f"input commit <code>{_escaped(_text(inputs['commit'])[:12])}</code>")
    if result.get("branch_commit"):
        facts.append(
            f"branch <code>{_escaped(result.get('branch', ''))}</code> at "
            f"<code>{_escaped(_text(result['branch_commit'])[:12])}</code>"
        )
    parts.append("<p>" + "; ".join(facts) + "</p>")
    if result.get("reason"):
        parts.append(f'<p class="reason">{_escaped(result["reason"])}</p>')
    verify = result.get("verify") if isinstance(result.get("verify"), dict) else {}
    if verify:
        detail = f": {verify['reason']}" if verify.get("reason") else ""
        parts.append(f"<p>verify: {_escaped(str(verify.get('verdict', '')) + detail)}</p>")
    description = folder / ARTIFACTS["description"]
    if description.exists():
        # No raw HTML, and images as text: the page fetches nothing.
        markdown = MarkdownIt("commonmark", {"html": False}).disable("image")
        rendered = markdown.render(_read(description).decode("utf-8", "replace"))
        parts.append(
            '<details><summary>Pull-request description</summary><div class="description">'
            f"{rendered}</div></details>"
        )
    patch = folder / ARTIFACTS["patch"]
    if patch.exists() and patch.stat().st_size:
        code = _read(patch).decode("utf-8", "replace")
        parts.append(
            "<details><summary>Patch</summary>"
            + highlight(code, DiffLexer(), HtmlFormatter(cssclass="highlight"))
            + "</details>"
        )
    parts.append("</section>")
    return "".join(parts)


def _json_for_script(data: object) -> str:
    # Inside <script>, "</" would end the element early and "<!--" change how it is read:
    # JSON's own escapes for <, > and & leave no markup in it at all.
    text = json.dumps(data, sort_keys=True)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def html_report(results: list[dict], store: ResultStore, generated: str) -> str:
    from pygments.formatters import HtmlFormatter

    rows = fleet_rows(results)
    totals = rule_totals(results)
    statuses = Counter(row.status for row in rows)
    summary = ", ".join(f"{n} {status}" for status, n in sorted(statuses.items()))
    blocked = sum(row.blockers > 0 for row in rows)
    options = "".join(
        f'<option value="{html.escape(s)}">{html.escape(s)}</option>'
        for s in ["", "failed", "blocked", *sorted(statuses)]
    ).replace('<option value=""></option>', '<option value="">every status</option>')
    head = "".join(f'<th data-key="{key}">{html.escape(label)}</th>' for key, label in _COLUMNS)
    data = {"rows": [asdict(r) for r in rows], "rules": [asdict(t) for t in totals]}
    return "".join(
        [
            '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">',
            "<title>trncodemod campaign report</title>",
            f"<style>{_STYLE}{HtmlFormatter().get_style_defs('.highlight')}</style></head><body>",
            "<h1>trncodemod campaign</h1>",
            f"<p>{len(rows)} repositories: {html.escape(summary)}; {blocked} with blockers. "
            f"Generated {html.escape(generated)}.</p>",
            *(f'<p class="reason">{html.escape(line)}</p>' for line in fleet_state(rows)),
            "<h2>Fleet</h2>",
            '<div class="controls"><input id="filter" type="search" placeholder="filter rows" '
            f'aria-label="filter rows"><select id="status" aria-label="status">{options}</select>'
            '<span id="shown"></span></div>',
            f'<table id="fleet"><thead><tr>{head}</tr></thead><tbody>',
            *(_row_html(row) for row in rows),
            "</tbody></table>",
            "<h2>Findings and blockers by rule</h2>",
            _chart(totals),
            "<h2>Repositories</h2>",
            *(_repository_html(r, store.folder(r["name"])) for r in results),
            f'<script type="application/json" id="fleet-data">{_json_for_script(data)}</script>',
            f"<script>{_SCRIPT}</script></body></html>\n",
        ]
    )


def _escaped(value: object) -> str:
    """Any value of a result (a hand-edited one holds lists where strings were) as HTML text."""
    return html.escape(value if isinstance(value, str) else json.dumps(value), quote=True)


def _count(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _anchor(name: str) -> str:
    return re.sub(r"[^a-z0-9_-]", "", name.lower().replace(" ", "-"))


# A repository's artifact is read up to this size: a report page is for people.
MAX_ARTIFACT_BYTES = 20_000_000


def _read(path: Path) -> bytes:
    """An artifact's bytes: a regular file, never through a link, at most MAX_ARTIFACT_BYTES."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return b""
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return b""
        return handle.read(MAX_ARTIFACT_BYTES)


def markdown_report(results: list[dict], store: ResultStore, generated: str) -> str:
    rows = fleet_rows(results)
    lines = [
        "# trncodemod campaign",
        "",
        f"{len(rows)} repositories. Generated {generated}.",
        "",
        *(line + "\n" for line in fleet_state(rows)),
        "## Fleet",
        "",
        "| " + " | ".join(label for _, label in _COLUMNS) + " |",
        "|" + "---|" * len(_COLUMNS),
    ]
    for row in rows:
        values = [plain(getattr(row, key)) for key, _ in _COLUMNS]
        values[0] = f"[{plain(row.name)}](#{_anchor(row.name)})"
        lines.append("| " + " | ".join(values) + " |")
    lines += ["", "## Findings and blockers by rule", ""]
    lines += ["| rule | name | findings | blockers | repositories |", "|---|---|---|---|---|"]
    lines += [
        f"| {plain(t.code)} | {plain(t.name)} | {t.findings} | {t.blockers} | {t.repositories} |"
        for t in rule_totals(results)
    ]
    lines += ["", "## Repositories"]
    for result in results:
        folder = store.folder(result["name"])
        lines += ["", f"### {plain(result['name'])}", "", f"Status: **{plain(result['status'])}**."]
        if result.get("reason"):
            lines += ["", f"Reason: {plain(result['reason'])}"]
        description = folder / ARTIFACTS["description"]
        if description.exists():
            # As its Markdown source, fenced: it holds file names and code the repository
            # chose, and a viewer of report.md renders raw HTML and images.
            body = _read(description).decode("utf-8", "replace")
            lines += ["", "<details><summary>Pull-request description</summary>", ""]
            lines += [fence(body, "markdown"), "", "</details>"]
        patch = folder / ARTIFACTS["patch"]
        if patch.exists() and patch.stat().st_size:
            code = _read(patch).decode("utf-8", "replace")
            lines += [
                "",
                "<details><summary>Patch</summary>",
                "",
                fence(code, "diff"),
                "",
                "</details>",
            ]
    return "\n".join(lines) + "\n"


def merged_sarif(results: list[dict], store: ResultStore) -> dict:
    from trncodemod.output.sarif import merge_sarif_logs

    logs = []
    for result in results:
        path = store.folder(result["name"]) / ARTIFACTS["sarif"]
        try:
            log = json.loads(_read(path) or b"null")
        except ValueError:
            continue
        if isinstance(log, dict):
            logs.append((result["name"], log))
    return merge_sarif_logs(logs)


def write_reports(out: Path) -> list[Path]:
    """The three reports of the results under ``out``; the paths written."""
    store = ResultStore(out)
    results = store.results()
    generated = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    documents = {
        HTML_NAME: html_report(results, store, generated),
        MARKDOWN_NAME: markdown_report(results, store, generated),
        SARIF_NAME: json.dumps(merged_sarif(results, store), indent=1, ensure_ascii=False),
    }
    for name, text in documents.items():
        if (out / name).is_dir():  # results written before repository names were checked
            raise OSError(f"{out / name} is a folder (a repository named so?): no report written")
        # A file name that is not UTF-8 reaches here as surrogates: written as escapes.
        write_atomic(out / name, text.encode("utf-8", "backslashreplace"))
    return [out / name for name in documents]
