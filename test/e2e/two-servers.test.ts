// Two `hnsight serve` in one browser: each tab keeps its server's token in its own sessionStorage
// (renderer/src/api/tab-token.ts; never a cookie, which every port of 127.0.0.1 would receive), so
// both tabs keep working side by side — also after a reload without the token in the URL. A server restarted on the same port has a new token: its old
// tab says so in words, naming the server, instead of failing with a bare "401"; the other tab goes on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launch, serve, shot, type Served } from './helpers.ts';

const READY = '#root[data-app-state="ready"]';

async function open(ctx: BrowserContext, url: string): Promise<Page> {
  const page = await ctx.newPage();
  await page.goto(url);
  await page.waitForSelector(READY, { timeout: 60_000 });
  await page.waitForSelector('[data-testid="summary"]');
  return page;
}

/** A call to the server from the page: search for an address and read the hits the app shows. */
async function searchWorks(page: Page, query: string): Promise<void> {
  await page.keyboard.press('Escape');
  await page.waitForSelector('[data-testid="summary"]', { state: 'detached' });
  await page.keyboard.press('Control+k');
  await page.waitForSelector('[data-testid="palette-input"]');
  await page.keyboard.type(query);
  await page.waitForSelector('[data-testid="palette"] [role="option"]', { timeout: 15_000 });
  expect(await page.textContent('[data-testid="palette"]')).toContain(query);
  await page.keyboard.press('Escape');
  await page.waitForSelector('[data-testid="palette"]', { state: 'detached' });
}

describe('two servers in one browser', () => {
  let browser: Browser;
  let ctx: BrowserContext;
  let a: Served;
  let b: Served;
  let pageA: Page;
  let pageB: Page;

  beforeAll(async () => {
    browser = await launch();
    a = await serve(['assets/demo/l2bridge-node']);
    b = await serve(['assets/demo/overlay-node']);
    ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  });

  afterAll(async () => {
    await ctx?.close();
    await browser?.close();
    await a?.stop();
    await b?.stop();
  });

  it('keeps both tabs working, each with its own server', async () => {
    pageA = await open(ctx, a.url);
    pageB = await open(ctx, b.url);
    // No cookie at all: each tab holds its own server's token.
    expect(await ctx.cookies()).toEqual([]);
    const held = (p: Page) => p.evaluate(() => sessionStorage.getItem('hnsight.token'));
    expect(await held(pageA)).toBe(new URL(a.url).searchParams.get('token'));
    expect(await held(pageB)).toBe(new URL(b.url).searchParams.get('token'));
    // The first tab still talks to its server after the second one opened.
    await searchWorks(pageA, '10.244.32.3');
    await searchWorks(pageB, '10.244.18.3');
    // A navigation in the same tab without the token in the URL finds it in the tab's storage.
    await pageA.goto(`http://127.0.0.1:${a.port}/`);
    await pageA.waitForSelector(READY, { timeout: 60_000 });
    expect(await pageA.locator('[data-testid="error-state"]').count()).toBe(0);
  });

  it('says in words which server no longer accepts a tab when it was restarted on the same port', async () => {
    const port = b.port;
    await b.stop();
    b = await serve(['assets/demo/overlay-node'], { port });
    expect(b.port).toBe(port);
    // Any call from the old tab now carries the old token: a search, or the event stream's own
    // reconnection, whichever comes first (the second can replace the view before the palette opens).
    const lost = pageB.locator('[data-testid="error-state"][data-kind="access"]');
    await pageB.keyboard.press('Control+k');
    const first = await Promise.race([
      // The loser of the race times out later: caught, so it is not an unhandled rejection.
      pageB.waitForSelector('[data-testid="palette-input"]', { timeout: 15_000 }).then(() => 'palette', () => 'none'),
      lost.waitFor({ timeout: 15_000 }).then(() => 'lost', () => 'none'),
    ]);
    if (first === 'palette') await pageB.keyboard.type('10.244.18.3');
    await lost.waitFor({ timeout: 15_000 });
    const text = await lost.textContent();
    expect(text).toContain(`The hnsight server at 127.0.0.1:${port} no longer accepts this tab`);
    expect(text).toMatch(/no longer running on this port, or its token changed/);
    expect(text).not.toMatch(/\b401\b|Unauthorized/);
    await shot(pageB, 'two-servers-access-lost');
    // The other server's tab is unaffected.
    await searchWorks(pageA, '10.244.32.4');
    // The restarted server's printed URL opens it again in the same tab.
    await pageB.goto(b.url);
    await pageB.waitForSelector(READY, { timeout: 60_000 });
    await pageB.waitForSelector('[data-testid="summary"]');
    expect(await pageB.locator('[data-testid="error-state"]').count()).toBe(0);
  });
});
