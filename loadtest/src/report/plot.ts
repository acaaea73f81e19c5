import { Resvg } from '@resvg/resvg-js';

// Line charts as SVG, rasterised to PNG by resvg (a prebuilt binary from the npm registry, no
// native build). Small on purpose: axes with round ticks, a legend, vertical markers for the
// faults of the timeline.

export interface Line {
  name: string;
  color: string;
  points: [number, number][];
  dashed?: boolean;
}

export interface Chart {
  title: string;
  xLabel: string;
  yLabel: string;
  lines: Line[];
  /** Vertical markers at x, labelled. */
  markers?: { x: number; label: string }[];
  width?: number;
  height?: number;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** 1, 2, 5 × 10^k steps giving about `count` ticks over [lo, hi]. */
export function niceTicks(lo: number, hi: number, count = 6): number[] {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const ticks: number[] = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step)
    ticks.push(Number(v.toPrecision(12)));
  return ticks;
}

function fmt(v: number): string {
  const a = Math.abs(v);
  if (a >= 1e6) return `${(v / 1e6).toFixed(a >= 1e7 ? 0 : 1)}M`;
  if (a >= 1e4) return `${(v / 1e3).toFixed(0)}k`;
  if (a >= 100 || Number.isInteger(v)) return v.toFixed(0);
  return v.toPrecision(2);
}

export function renderSvg(c: Chart): string {
  const W = c.width ?? 900;
  const H = c.height ?? 420;
  const m = { l: 74, r: 190, t: 44, b: 52 };
  const pts = c.lines.flatMap((l) => l.points).filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y));
  let [x0, x1, y1] = [0, 1, 1];
  if (pts.length > 0) {
    x0 = Math.min(...pts.map((p) => p[0]));
    x1 = Math.max(...pts.map((p) => p[0]));
    y1 = Math.max(...pts.map((p) => p[1]));
  }
  for (const mk of c.markers ?? []) {
    x0 = Math.min(x0, mk.x);
    x1 = Math.max(x1, mk.x);
  }
  if (x1 <= x0) x1 = x0 + 1;
  if (y1 <= 0) y1 = 1;
  const yTicks = niceTicks(0, y1 * 1.05);
  const yMax = Math.max(y1 * 1.05, yTicks[yTicks.length - 1] ?? 1);
  const xTicks = niceTicks(x0, x1);
  const px = (x: number) => m.l + ((x - x0) / (x1 - x0)) * (W - m.l - m.r);
  const py = (y: number) => H - m.b - (y / yMax) * (H - m.t - m.b);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="DejaVu Sans, sans-serif">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${W / 2}" y="24" font-size="16" text-anchor="middle" font-weight="bold">${esc(c.title)}</text>`,
  ];
  for (const t of yTicks) {
    out.push(`<line x1="${m.l}" x2="${W - m.r}" y1="${py(t)}" y2="${py(t)}" stroke="#e4e4e4"/>`);
    out.push(`<text x="${m.l - 6}" y="${py(t) + 4}" font-size="11" text-anchor="end">${fmt(t)}</text>`);
  }
  for (const t of xTicks) {
    out.push(`<line x1="${px(t)}" x2="${px(t)}" y1="${m.t}" y2="${H - m.b}" stroke="#f0f0f0"/>`);
    out.push(`<text x="${px(t)}" y="${H - m.b + 16}" font-size="11" text-anchor="middle">${fmt(t)}</text>`);
  }
  out.push(
    `<rect x="${m.l}" y="${m.t}" width="${W - m.l - m.r}" height="${H - m.t - m.b}" fill="none" stroke="#888"/>`,
  );
  out.push(
    `<text x="${(m.l + W - m.r) / 2}" y="${H - 12}" font-size="12" text-anchor="middle">${esc(c.xLabel)}</text>`,
  );
  out.push(
    `<text x="16" y="${(m.t + H - m.b) / 2}" font-size="12" text-anchor="middle" transform="rotate(-90 16 ${(m.t + H - m.b) / 2})">${esc(c.yLabel)}</text>`,
  );
  (c.markers ?? []).forEach((mk, i) => {
    const x = px(mk.x);
    out.push(
      `<line x1="${x}" x2="${x}" y1="${m.t}" y2="${H - m.b}" stroke="#c0392b" stroke-dasharray="4 3"/>`,
    );
    out.push(
      `<text x="${x + 3}" y="${m.t + 12 + (i % 6) * 12}" font-size="10" fill="#c0392b">${esc(mk.label)}</text>`,
    );
  });
  for (const l of c.lines) {
    // A non-finite y (no data: a store down, no arrival in that bucket) breaks the line.
    let d = '';
    let pen = false;
    let drawn = 0;
    for (const [x, y] of l.points) {
      if (!Number.isFinite(x) || !Number.isFinite(y)) {
        pen = false;
        continue;
      }
      d += `${pen ? 'L' : 'M'}${px(x).toFixed(1)},${py(y).toFixed(1)}`;
      pen = true;
      drawn++;
    }
    if (drawn === 0) continue;
    out.push(
      `<path d="${d}" fill="none" stroke="${l.color}" stroke-width="1.8"${l.dashed ? ' stroke-dasharray="6 3"' : ''}/>`,
    );
    const only = l.points.find(([x, y]) => Number.isFinite(x) && Number.isFinite(y));
    if (drawn === 1 && only)
      out.push(`<circle cx="${px(only[0])}" cy="${py(only[1])}" r="3" fill="${l.color}"/>`);
  }
  c.lines.forEach((l, i) => {
    // The legend sits right of the plot, so it never hides a line.
    const y = m.t + 14 + i * 18;
    const x = W - m.r + 12;
    out.push(
      `<line x1="${x}" x2="${x + 22}" y1="${y - 4}" y2="${y - 4}" stroke="${l.color}" stroke-width="2.5"${l.dashed ? ' stroke-dasharray="6 3"' : ''}/>`,
    );
    out.push(`<text x="${x + 28}" y="${y}" font-size="11">${esc(l.name)}</text>`);
  });
  out.push('</svg>');
  return out.join('\n');
}

export function renderPng(c: Chart): Buffer {
  const resvg = new Resvg(renderSvg(c), {
    font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' },
  });
  return resvg.render().asPng();
}
