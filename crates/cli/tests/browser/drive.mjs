// Drives a symex HTML report in headless Chromium (Debian's /usr/bin/chromium) for the test
// crates/cli/tests/html_report.rs, which judges what this prints: after the page loads, and
// after each press of the right-arrow key, the highlighted source line, the step text and the
// variables shown. Usage: node drive.mjs PAGE.html PRESSES SCREENSHOT.png
import { chromium } from "playwright-core";
import { pathToFileURL } from "node:url";

const [page_path, presses, screenshot] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors = [];
  const requests = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  page.on("request", (r) => { if (!r.url().startsWith("file:")) requests.push(r.url()); });
  await page.goto(pathToFileURL(page_path).href);
  const observe = () => page.evaluate(() => {
    const current = document.querySelector(".line.current");
    const vars = {};
    for (const row of document.querySelectorAll("#variables tr[data-var]")) {
      if (!(row.dataset.var in vars)) vars[row.dataset.var] = row.querySelector(".value").textContent;
    }
    return {
      step: Number(document.getElementById("step-text").dataset.step),
      line: current ? Number(current.dataset.line) : null,
      text: document.getElementById("step-text").textContent,
      vars,
      heap_objects: [...document.querySelectorAll("#heap g.node.object")].map((g) => g.dataset.object),
      freed: [...document.querySelectorAll("#heap g.node.freed")].map((g) => g.dataset.object),
    };
  });
  const observations = [await observe()];
  for (let i = 0; i < Number(presses); i++) {
    await page.keyboard.press("ArrowRight");
    observations.push(await observe());
  }
  await page.screenshot({ path: screenshot, fullPage: false });
  console.log(JSON.stringify({ observations, errors, requests }));
} finally {
  await browser.close();
}
