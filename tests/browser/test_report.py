"""The HTML report in a real browser: headless Debian chromium, driven by
Selenium. Loads the report built from the sample of real lichess games
(REMIS_REPORT) and one built from generated games (REMIS_SYNTHETIC_REPORT),
checks that every chart is there and visible, that the page logs no errors
and makes no network requests, that generated games are flagged by a banner
and real ones are not, and saves a screenshot for a human to look at."""

import os
import re
import pathlib

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

REPORT = pathlib.Path(os.environ.get("REMIS_REPORT", "reports/sample/report.html")).resolve()
SYNTHETIC = pathlib.Path(os.environ.get("REMIS_SYNTHETIC_REPORT", "target/test-report/synthetic/report.html")).resolve()
SCREENSHOT = pathlib.Path(os.environ.get("REMIS_SCREENSHOT", "target/report-screenshot.png"))
CHART_IDS = ["chart-year", "chart-band", "chart-mix", "chart-length"]
# Charts of the statistician's sections: White's score against FIDE's
# expectation, and the draw rate by time control (lichess games have one).
GAME_CHART_IDS = ["chart-score", "chart-time-class"]


def open_page(path, tmp_path_factory):
    assert path.is_file(), f"no report at {path}: run make test (or make run) first"
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for flag in [
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--window-size=1280,1000",
        f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}",
    ]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))
    driver.get(path.as_uri())
    return driver


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    driver = open_page(REPORT, tmp_path_factory)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory):
    driver = open_page(SYNTHETIC, tmp_path_factory)
    yield driver
    driver.quit()


def charts_are_visible(browser, chart_ids):
    for chart_id in chart_ids:
        title = browser.find_element(By.ID, f"{chart_id}-title")
        svg = title.find_element(By.XPATH, "..")
        assert svg.tag_name == "svg"
        box = browser.execute_script(
            "const r = arguments[0].getBoundingClientRect(); return [r.width, r.height];", svg
        )
        assert box[0] > 300 and box[1] > 150, f"{chart_id} is {box}"
        shapes = svg.find_elements(By.CSS_SELECTOR, "rect, path, polyline, polygon, circle")
        assert len(shapes) > 10, f"{chart_id} has {len(shapes)} shapes"
        assert title.get_attribute("textContent").strip()
        assert svg.find_element(By.TAG_NAME, "desc").get_attribute("textContent").strip()


def test_every_chart_is_present_and_visible(browser):
    charts_are_visible(browser, CHART_IDS + GAME_CHART_IDS)


def test_year_lines_break_at_missing_years(browser):
    # Each band's line is drawn in runs of consecutive years: no polyline
    # of the year chart may join two years more than one apart. The x
    # position of each year comes from the chart's own tick labels.
    chart = browser.find_element(By.ID, "chart-year-title").find_element(By.XPATH, "..")
    ticks = {}
    for text in chart.find_elements(By.TAG_NAME, "text"):
        label = text.get_attribute("textContent").strip()
        if label.isdigit() and len(label) == 4:
            ticks[int(label)] = float(text.get_attribute("x"))
    assert len(ticks) >= 2, ticks
    years = sorted(ticks)
    step = (ticks[years[-1]] - ticks[years[0]]) / (years[-1] - years[0])
    # Band lines have stroke width 2 (axes and ticks 1, legend lines 3).
    for line in chart.find_elements(By.CSS_SELECTOR, 'polyline[stroke-width="2"]'):
        xs = [float(p.split(",")[0]) for p in line.get_attribute("points").split()]
        gaps = [b - a for a, b in zip(xs, xs[1:])]
        assert all(g < 1.5 * step for g in gaps), (gaps, step)


def test_wide_tables_keep_band_and_totals_in_view(browser):
    table = browser.find_element(By.CSS_SELECTOR, "#table .wide")
    first = table.find_element(By.CSS_SELECTOR, "tr > :first-child")
    total = table.find_element(By.CSS_SELECTOR, ".total")
    for cell in (first, total):
        assert browser.execute_script("return getComputedStyle(arguments[0]).position", cell) == "sticky"


def test_real_games_have_no_synthetic_banner(browser):
    assert browser.find_elements(By.ID, "synthetic") == []


def test_generated_games_are_flagged_and_the_rule_study_drawn(synthetic):
    banner = synthetic.find_element(By.ID, "synthetic")
    assert banner.is_displayed() and "remis generate" in banner.text
    charts_are_visible(synthetic, CHART_IDS + ["chart-rules"])


def test_audit_section_counts_and_links(browser):
    audit = browser.find_element(By.ID, "audit")
    assert "Results the Laws contradict" in audit.text
    rows = audit.find_elements(By.CSS_SELECTOR, "table tr")
    assert len(rows) == 7, [r.text for r in rows]  # header, five mismatch kinds, dead positions


def test_every_listed_game_links_to_its_trail(browser):
    """Each example game of the audit links to its explanation (remis
    explain's trail, in the page): the anchor exists, holds the verdict
    with its article and a board for each event, and following the link
    brings it into view."""
    links = browser.find_elements(By.CSS_SELECTOR, "#audit a.why")
    items = browser.find_elements(By.CSS_SELECTOR, "#audit ul.examples li")
    assert links and len(links) == len(items), (len(links), len(items))
    for link in links:
        target = link.get_attribute("href").split("#", 1)[1]
        trail = browser.find_element(By.ID, target)
        assert re.search(r"article [0-9.]+ of the FIDE Laws", trail.get_attribute("textContent"))
        boards = trail.find_elements(By.CSS_SELECTOR, "svg.board")
        events = trail.find_elements(By.CSS_SELECTOR, "figure.event")
        assert boards and len(boards) == len(events)
        assert len(boards[0].find_elements(By.CSS_SELECTOR, "text.piece")) >= 2  # the kings at least
    # Open the examples, follow the first link: the trail scrolls into view.
    browser.execute_script("document.querySelectorAll('#audit details').forEach(d => d.open = true)")
    first = links[0]
    target = first.get_attribute("href").split("#", 1)[1]
    first.click()
    top = browser.execute_script(f"return document.getElementById('{target}').getBoundingClientRect().top")
    height = browser.execute_script("return window.innerHeight")
    assert -2 <= top < height, (top, height)  # scrolled to it, to within a pixel
    browser.execute_script("window.scrollTo(0, 0)")


def test_sections_and_numbers(browser):
    headings = [h.text for h in browser.find_elements(By.TAG_NAME, "h2")]
    for expected in ["Headline", "Draw rate by year", "Draw rate by rating band, all years",
                     "How the draws happened", "How long drawn games lasted", "Band × year", "Coverage",
                     "Scoring systems", "Results the Laws contradict", "Wins, draws and losses",
                     "Draw rate by rating and rating gap", "Draws by opening", "Draws by time control",
                     "Clocks at the end"]:
        # The lead figures' titles name their format ("Draw rate by year:
        # online bullet games"): they never mix formats.
        assert any(h == expected or h.startswith(expected + ": ") for h in headings), headings
    lead = browser.find_element(By.ID, "lead-format").text
    assert "only" in lead and "--play all" in lead, lead
    assert "Draw rate by year: " + lead.split(" of ", 1)[1].split(" only")[0] in headings, (lead, headings)
    coverage = browser.find_element(By.ID, "coverage").text
    assert "Used in the rates" in coverage and "unsupported variant" in coverage
    heat = browser.find_element(By.ID, "table")
    assert len(heat.find_elements(By.TAG_NAME, "tr")) >= 5
    scoring = browser.find_element(By.ID, "scoring").text
    assert "by rule" not in scoring and "more material" in scoring


def test_no_errors_no_scripts_no_network(browser):
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == []
    assert browser.execute_script("return document.scripts.length") == 0
    assert browser.execute_script("return performance.getEntriesByType('resource').length") == 0


def test_publishing_apparatus(browser):
    # A table of contents whose every link lands on a section of the page.
    links = browser.find_elements(By.CSS_SELECTOR, "nav#contents a")
    assert len(links) >= 12, [l.text for l in links]
    for link in links:
        target = link.get_attribute("href").split("#", 1)[1]
        assert browser.find_elements(By.ID, target), target
    for heading in ["Methods", "How to cite", "Provenance"]:
        assert heading in [h.text for h in browser.find_elements(By.TAG_NAME, "h2")], heading
    methods = browser.find_element(By.ID, "methods").text
    for words in ["Independence", "agreed", "Wilson"]:
        assert words in methods, words
    # Provenance: the version, the command and a SHA-256 for every input.
    provenance = browser.find_element(By.ID, "provenance")
    assert "remis " in provenance.text and "report" in provenance.text
    digests = [c.get_attribute("textContent") for c in provenance.find_elements(By.CSS_SELECTOR, "tr:not(:has(.made-by)):not(.source) td code")]
    assert digests and all(len(d) == 64 and all(ch in "0123456789abcdef" for ch in d) for d in digests), digests
    # Each table's origin: the remis run that made it and what it read.
    made_by = provenance.find_elements(By.CSS_SELECTOR, "td.made-by")
    assert len(made_by) == len(digests)
    assert all("remis classify" in m.get_attribute("textContent") for m in made_by)
    # Under each, the sources it read, each with the SHA-256 computed while reading.
    sources = [c.get_attribute("textContent") for c in provenance.find_elements(By.CSS_SELECTOR, "tr.source td code")]
    assert sources and all(len(d) == 64 and all(ch in "0123456789abcdef" for ch in d) for d in sources), sources
    assert "bootstrap seed" in provenance.find_element(By.ID, "settings").get_attribute("textContent")
    # Tables as CSV, from the page itself (data: URIs; no network).
    downloads = browser.find_elements(By.CSS_SELECTOR, "a[download][href^='data:text/csv']")
    assert len(downloads) >= 5, len(downloads)
    for a in downloads:
        assert a.get_attribute("download").endswith(".csv")
        assert "%2C" in a.get_attribute("href")  # a header line of several columns


def test_bands_are_ranges_and_unrated_is_apart(browser):
    for chart_id in ["chart-band", "chart-year"]:
        chart = browser.find_element(By.ID, f"{chart_id}-title").find_element(By.XPATH, "..")
        labels = [t.get_attribute("textContent").strip() for t in chart.find_elements(By.TAG_NAME, "text")]
        assert any("–" in label and label[:4].isdigit() for label in labels), labels
        assert not any(label.endswith("+") for label in labels), labels
        assert "unrated" not in labels, labels


def test_axes_fit_the_data(browser):
    # Lichess draw rates are a few percent: the axes end near them, not at 100%.
    for chart_id in ["chart-year", "chart-band"]:
        chart = browser.find_element(By.ID, f"{chart_id}-title").find_element(By.XPATH, "..")
        ticks = [t.get_attribute("textContent").strip() for t in chart.find_elements(By.TAG_NAME, "text")]
        percents = [int(t[:-1]) for t in ticks if t.endswith("%") and t[:-1].isdigit()]
        assert percents and 0 in percents, ticks
        assert max(percents) <= 40, (chart_id, percents)


def test_play_told_apart_and_year_columns_bounded(browser):
    table = browser.find_element(By.ID, "by-play")
    assert "online" in table.text
    header = browser.find_elements(By.CSS_SELECTOR, "#table table tr:first-child th")
    assert 2 < len(header) < 40, len(header)  # band, years, total
    filters = browser.find_element(By.ID, "headline").text
    assert "Chess960 games left out" in filters and "correspondence games left out" in filters


def test_screenshot(browser):
    SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
    height = browser.execute_script("return document.documentElement.scrollHeight")
    browser.set_window_size(1280, min(height, 8000))
    assert browser.save_screenshot(str(SCREENSHOT))
    # Not a blank page: many colours, and ink across its length.
    from PIL import Image
    image = Image.open(SCREENSHOT).convert("RGB")
    small = image.resize((64, 256))
    colours = {small.getpixel((x, y)) for x in range(64) for y in range(256)}
    assert len(colours) > 200, len(colours)
    rows_with_ink = sum(
        1 for y in range(256) if any(sum(small.getpixel((x, y))) < 740 for x in range(64))
    )
    assert rows_with_ink > 192, rows_with_ink
    # The charts were painted, not only the text: the agreed-draw colour of
    # the draw-type charts (palette.rs, #4e79a7) fills whole bars.
    agreed = (0x4E, 0x79, 0xA7)
    painted = sum(
        1
        for pixel in image.getdata()
        if all(abs(channel - want) <= 6 for channel, want in zip(pixel, agreed))
    )
    assert painted > 2000, painted


def test_players_and_the_interval_clustered_by_player(browser):
    # The sample is mostly one account's games: the page says how
    # concentrated they are, and gives the draw rate a second interval,
    # clustered by player, in the Players section: as wide as Wilson's at
    # least.
    players = browser.find_element(By.ID, "players")
    rows = players.find_elements(By.CSS_SELECTOR, "#by-player tr")
    assert [r.find_element(By.TAG_NAME, "td").text for r in rows[1:]] == ["Wilson", "Clustered by player"]
    def bounds(text):
        lo, hi = text.rstrip("%").split("–")
        return float(lo), float(hi)
    wilson = bounds(rows[1].find_elements(By.TAG_NAME, "td")[2].text)
    clustered_text = rows[2].find_elements(By.TAG_NAME, "td")[2].text
    clustered = bounds(clustered_text)
    assert clustered[1] - clustered[0] >= wilson[1] - wilson[0] - 0.11, (clustered, wilson)
    # That interval is of the lead population only where the summary keeps
    # its players apart (over-the-board classical games); this sample is
    # online, so it counts every game used, and the headline (of the lead
    # population) quotes it only when the two are one (not here).
    headline = browser.find_element(By.ID, "headline").text
    one_population = "The figures are of" not in headline
    assert ("clustered by player " + clustered_text in headline) == one_population, headline
    top = players.find_elements(By.CSS_SELECTOR, ".wide table tr")
    assert len(top) == 11, len(top)  # the header and the ten most frequent players
    counts = [int(r.find_elements(By.TAG_NAME, "td")[1].text.replace("\u202f", "")) for r in top[1:]]
    assert counts == sorted(counts, reverse=True), counts


def test_legends_sit_outside_the_data(synthetic):
    # The legend box of the lead chart and of the play chart lies right of
    # every data line: it never covers a point.
    for chart_id in ["chart-year", "chart-play"]:
        titles = synthetic.find_elements(By.ID, f"{chart_id}-title")
        if not titles:
            continue
        svg = titles[0].find_element(By.XPATH, "..")
        boxes = svg.find_elements(By.CSS_SELECTOR, 'rect[stroke="#BBBBBB"]')
        assert len(boxes) == 1, chart_id
        left = float(boxes[0].get_attribute("x"))
        xs = [
            float(p.split(",")[0])
            for line in svg.find_elements(By.CSS_SELECTOR, 'polyline[stroke-width="2"]')
            for p in line.get_attribute("points").split()
        ]
        assert xs and max(xs) < left, (chart_id, max(xs), left)


def overlapping_labels(driver):
    """Pairs of text labels of one chart whose boxes overlap."""
    return driver.execute_script(
        """
        const out = [];
        for (const svg of document.querySelectorAll('svg')) {
          const boxes = [...svg.querySelectorAll('text')]
            .filter(t => t.textContent.trim())
            .map(t => [t.textContent.trim(), t.getBoundingClientRect()]);
          for (let i = 0; i < boxes.length; i++) {
            for (let j = i + 1; j < boxes.length; j++) {
              const [a, r] = boxes[i], [b, s] = boxes[j];
              const w = Math.min(r.right, s.right) - Math.max(r.left, s.left);
              const h = Math.min(r.bottom, s.bottom) - Math.max(r.top, s.top);
              if (w > 2 && h > 2) out.push([svg.id || svg.querySelector('title')?.id, a, b]);
            }
          }
        }
        return out;
        """
    )


def test_no_chart_label_overlaps_another(browser, synthetic):
    for driver in (browser, synthetic):
        assert overlapping_labels(driver) == []
