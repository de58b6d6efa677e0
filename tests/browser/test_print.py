"""The report printed: headless Debian chromium prints the report on
generated games (REMIS_SYNTHETIC_REPORT, which has a difference-in-
differences table and a band × year table of 18 years) to PDF on A4 and on
Letter paper, and pdftotext reads the PDF back. Every table must be there
whole: the difference-in-differences table with all its columns, every year
column of band × year, and the provenance's SHA-256, which sits in a section
that is collapsed on screen."""

import base64
import re
import subprocess

import pytest
from selenium.webdriver.common.by import By

from test_report import REPORT, SYNTHETIC, open_page

PAPERS = {"A4": (8.27, 11.69), "Letter": (8.5, 11.0)}


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    driver = open_page(SYNTHETIC, tmp_path_factory)
    yield driver
    driver.quit()


def printed(driver, paper, tmp_path):
    width, height = PAPERS[paper]
    pdf = driver.execute_cdp_cmd(
        "Page.printToPDF",
        {"paperWidth": width, "paperHeight": height, "printBackground": True},
    )
    path = tmp_path / f"report-{paper}.pdf"
    path.write_bytes(base64.b64decode(pdf["data"]))
    out = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True)
    # One space for any run of blanks: columns laid out side by side.
    return re.sub(r"[ \t]+", " ", out.stdout)


def between(text, start, end):
    """The printed text of a section, from its heading to the next one."""
    at = text.index(start)
    return text[at : text.index(end, at + len(start))]


def header_cells(driver, selector):
    return [
        th.get_attribute("textContent").strip()
        for th in driver.find_elements(By.CSS_SELECTOR, selector)
    ]


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_the_printed_report_holds_every_table_whole(page, paper, tmp_path):
    text = printed(page, paper, tmp_path)
    flat = " ".join(text.split())

    # Difference in differences: every column heading, and every series.
    did = page.find_element(By.XPATH, "//h3[contains(., 'difference in differences')]/following-sibling::div[1]//table")
    headings = [th.get_attribute("textContent").strip() for th in did.find_elements(By.CSS_SELECTOR, "tr:first-child th")]
    assert len(headings) >= 8, headings
    did_text = " ".join(between(text, "Series that changed their rules", "Editions and how much").split())
    for heading in headings:
        # A heading may wrap inside its cell: look for its first word.
        assert heading.split()[0] in did_text, (paper, heading)
    for cell in did.find_elements(By.CSS_SELECTOR, "tr td:last-child"):
        value = cell.get_attribute("textContent").strip()
        # A failed placebo's flag is words that wrap in their cell: the
        # estimate and interval must print whole, the flag at all.
        value, flagged, _ = value.partition(" fails:")
        if value:
            assert value in flat, (paper, "placebo", value)
        if flagged:
            assert "fails:" in did_text, (paper, "placebo flag")

    # Band × year: every year column of the table on screen, printed.
    years = [y for y in header_cells(page, "#table .wide table tr:first-child th") if re.match(r"^\d{4}", y)]
    assert len(years) >= 15, years
    heat = " ".join(between(text, "Draw rate in each cell", "Wins, draws and losses").split())
    missing = [y for y in years if y not in heat]
    assert not missing, (paper, missing)

    # The provenance's SHA-256, from a section collapsed on screen.
    sha = page.find_element(By.CSS_SELECTOR, "#provenance td code")
    digest = sha.get_attribute("textContent").strip()
    assert re.fullmatch(r"[0-9a-f]{64}", digest), digest
    assert digest in text.replace("\n", " ") or digest in flat.replace(" ", ""), (paper, "SHA-256")

    # Every source the input tables were made from, with the SHA-256
    # computed while it was read.
    sources = [
        c.get_attribute("textContent").strip()
        for c in page.find_elements(By.CSS_SELECTOR, "#provenance tr.source td:last-child code")
    ]
    assert sources and all(re.fullmatch(r"[0-9a-f]{64}", s) for s in sources), sources
    squeezed = "".join(text.split())
    missing = [s for s in sources if s not in squeezed]
    assert not missing, (paper, "sources' SHA-256", missing)


# The page as printed: print media, at the printable width of the paper
# (Chrome's default margins, 0.4 in a side, at 96 CSS pixels an inch).
CELL_CHECK = """
const width = arguments[0];
const bad = [];
for (const table of document.querySelectorAll('table')) {
  if (table.offsetParent === null) continue;  // not printed
  const where = (table.closest('section') || {}).id || '?';
  for (const row of table.rows) {
    let before = null;
    for (const cell of row.cells) {
      const box = cell.getBoundingClientRect();
      const text = cell.textContent.trim().slice(0, 40);
      if (box.width === 0) continue;
      if (box.right > width + 1) bad.push(['past the page edge', where, text, Math.round(box.right)]);
      // Text wider than its cell spills over the next one when printed.
      if (cell.scrollWidth > cell.clientWidth + 1) bad.push(['spills out of its cell', where, text, cell.scrollWidth - cell.clientWidth]);
      if (before && before.right > box.left + 1 && before.top < box.bottom && box.top < before.bottom)
        bad.push(['overlaps the cell before it', where, text, Math.round(before.right - box.left)]);
      before = box;
    }
  }
}
return bad;
"""


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    driver = open_page(REPORT, tmp_path_factory)
    yield driver
    driver.quit()


@pytest.mark.parametrize("paper", sorted(PAPERS))
@pytest.mark.parametrize("which", ["page", "sample"])
def test_no_printed_cell_overlaps_another_or_is_cut(which, paper, request):
    """Issue 47: the difference-in-differences table's series printed over
    its regime, and a column cut at the page's edge. Every printed cell of
    every table, on both reports (generated games with the rule study, the
    real sample), lies within the printable width, holds its text, and
    does not overlap its neighbour."""
    page = request.getfixturevalue(which)
    width = round((PAPERS[paper][0] - 0.8) * 96)
    page.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    page.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": 1100, "deviceScaleFactor": 1, "mobile": False},
    )
    try:
        bad = page.execute_script(CELL_CHECK, width)
    finally:
        page.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        page.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
    assert not bad, (paper, bad[:20], len(bad))
