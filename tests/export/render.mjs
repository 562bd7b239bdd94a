// render.mjs CHROMIUM URL - open URL in headless Chromium (puppeteer-core,
// found through NODE_PATH), wait for speedscope to draw, and print what
// the page shows as JSON: its title, its text, its errors, and whether a
// script of the profile's ran (hostile.sh's data-pwned).
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const puppeteer = require('puppeteer-core');
const [, , chromium, url] = process.argv;
const browser = await puppeteer.launch({
  executablePath: chromium, headless: true,
  args: ['--no-sandbox', '--enable-unsafe-swiftshader', '--disable-dev-shm-usage'],
});
try {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', e => errors.push(String(e)));
  page.on('dialog', async d => { errors.push('dialog: ' + d.message()); await d.dismiss(); });
  await page.goto(url, { waitUntil: 'load', timeout: 60000 });
  // the sandwich view is a table: wait for its first row
  await page.waitForFunction(() => document.body.innerText.includes('Symbol Name'),
                             { timeout: 60000 }).catch(() => errors.push('no table drawn'));
  const seen = await page.evaluate(() => ({
    title: document.title, text: document.body.innerText,
    pwned: document.documentElement.getAttribute('data-pwned') !== null }));
  console.log(JSON.stringify({ ...seen, errors }));
} finally {
  await browser.close();
}
