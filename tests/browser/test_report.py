"""The HTML report in a real browser: headless Debian chromium, driven by
Selenium. Loads the report built from the sample data (REMIS_REPORT), checks
that every chart is there and visible, that the page logs no errors and makes
no network requests, and saves a screenshot for a human to look at."""

import os
import pathlib

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

REPORT = pathlib.Path(os.environ.get("REMIS_REPORT", "reports/sample/report.html")).resolve()
SCREENSHOT = pathlib.Path(os.environ.get("REMIS_SCREENSHOT", "target/report-screenshot.png"))
CHART_IDS = ["chart-year", "chart-band", "chart-mix", "chart-length", "chart-rules"]


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    assert REPORT.is_file(), f"no report at {REPORT}: run make run first"
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
    driver.get(REPORT.as_uri())
    yield driver
    driver.quit()


def test_every_chart_is_present_and_visible(browser):
    for chart_id in CHART_IDS:
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


def test_sections_and_numbers(browser):
    headings = [h.text for h in browser.find_elements(By.TAG_NAME, "h2")]
    for expected in ["Headline", "Draw rate by year", "Draw rate by rating band, all years",
                     "How the draws happened", "How long drawn games lasted", "Band × year", "Coverage",
                     "Rules against short draws", "Scoring systems"]:
        assert expected in headings, headings
    coverage = browser.find_element(By.ID, "coverage").text
    assert "Used in the rates" in coverage and "invalid game" in coverage
    heat = browser.find_element(By.ID, "table")
    assert len(heat.find_elements(By.TAG_NAME, "tr")) >= 5


def test_no_errors_no_scripts_no_network(browser):
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == []
    assert browser.execute_script("return document.scripts.length") == 0
    assert browser.execute_script("return performance.getEntriesByType('resource').length") == 0


def test_screenshot(browser):
    SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
    height = browser.execute_script("return document.documentElement.scrollHeight")
    browser.set_window_size(1280, min(height, 8000))
    assert browser.save_screenshot(str(SCREENSHOT))
    assert SCREENSHOT.stat().st_size > 50_000
