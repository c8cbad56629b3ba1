import { chromium } from '@playwright/test';
const [,, url, out, width = '1280', height = '900', lang = 'en', full = 'no'] = process.argv;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-background-networking'] });
const page = await browser.newPage({ viewport: { width: Number(width), height: Number(height) }, locale: lang === 'bg' ? 'bg-BG' : 'en-US' });
page.on('console', (m) => { if (m.type() === 'error') console.log('console error:', m.text()); });
await page.goto(url, { waitUntil: 'networkidle' });
await page.waitForTimeout(500);
await page.screenshot({ path: out, fullPage: full === 'full' });
await browser.close();
