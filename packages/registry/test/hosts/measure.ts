/// <reference lib="dom" />
import type { Frame } from "playwright-core";

/*
 * What the browser tests read of the data view in a host's frame: its geometry (what overflows,
 * what scrolls, how charts and links are sized) and the colours its charts were drawn in. They
 * compare numbers, never pixels with a stored image.
 */

export interface ViewGeometry {
  /** The frame's width: the view's viewport. */
  readonly viewport: number;
  /** The document's scroll width: more than the viewport means the page scrolls sideways. */
  readonly scrollWidth: number;
  /** Elements (outside the table's own scrolling box) that reach past the right edge. */
  readonly overflowing: readonly string[];
  readonly table: { readonly left: number; readonly right: number; readonly clientWidth: number; readonly scrollWidth: number } | undefined;
  readonly canvases: ReadonlyArray<{ readonly label: string; readonly width: number; readonly height: number }>;
  readonly links: ReadonlyArray<{ readonly href: string; readonly title: string; readonly right: number; readonly lines: number; readonly clipped: boolean }>;
  readonly background: string;
}

export function viewGeometry(frame: Frame): Promise<ViewGeometry> {
  return frame.evaluate((): ViewGeometry => {
    const region = document.querySelector(".table-scroll");
    const viewport = document.documentElement.clientWidth;
    const overflowing = [...document.querySelectorAll("body *")]
      .filter((element) => !(region?.contains(element) && element !== region) && element.getBoundingClientRect().right > viewport + 0.5)
      .map((element) => `${element.tagName.toLowerCase()}${element.className ? `.${String(element.className)}` : ""}`);
    const box = region?.getBoundingClientRect();
    return {
      viewport,
      scrollWidth: document.documentElement.scrollWidth,
      overflowing,
      table: region === null || box === undefined ? undefined : { left: box.left, right: box.right, clientWidth: region.clientWidth, scrollWidth: region.scrollWidth },
      canvases: [...document.querySelectorAll("canvas")].map((canvas) => ({ label: canvas.getAttribute("aria-label") ?? "", width: canvas.clientWidth, height: canvas.clientHeight })),
      links: [...document.querySelectorAll<HTMLAnchorElement>(".sources a")].map((link) => {
        const url = link.querySelector<HTMLElement>(".url")!;
        const lineHeight = parseFloat(getComputedStyle(url).lineHeight);
        return {
          href: link.href,
          title: link.title,
          right: link.getBoundingClientRect().right,
          lines: Math.round(url.clientHeight / lineHeight),
          clipped: url.scrollHeight > url.clientHeight + 1,
        };
      }),
      background: getComputedStyle(document.body).backgroundColor,
    };
  });
}

/**
 * How many pixels of canvas `index` are drawn opaque in each colour (`#rrggbb`), within a few
 * levels for anti-aliasing; only rows `fromRow` to `toRow` (CSS pixels) when given.
 */
export function colourCounts(frame: Frame, index: number, colours: readonly string[], rows?: { fromRow: number; toRow: number }): Promise<number[]> {
  return frame.evaluate(
    ({ index, colours, rows }) => {
      const canvas = document.querySelectorAll("canvas")[index]!;
      const scale = canvas.width / canvas.clientWidth;
      const top = Math.round((rows?.fromRow ?? 0) * scale);
      const bottom = Math.min(canvas.height, Math.round((rows?.toRow ?? canvas.clientHeight) * scale));
      const { data } = canvas.getContext("2d")!.getImageData(0, top, canvas.width, bottom - top);
      const targets = colours.map((hex) => [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16)));
      const counts = colours.map(() => 0);
      for (let i = 0; i < data.length; i += 4) {
        if (data[i + 3]! < 230) continue;
        targets.forEach(([r, g, b], colour) => {
          if (Math.abs(data[i]! - r!) < 10 && Math.abs(data[i + 1]! - g!) < 10 && Math.abs(data[i + 2]! - b!) < 10) counts[colour]!++;
        });
      }
      return counts;
    },
    { index, colours, rows },
  );
}
