/**
 * A small force-directed layout for the node-link picture of CONSTRUCT answers (no DOM):
 * nodes repel each other, edges pull their ends together like springs, and a weak pull keeps
 * everything near the centre. Deterministic: nodes start on a circle in the given order and
 * a fixed number of steps runs with a cooling step size.
 * @module
 */

/** A placed node. */
export interface Placed {
  /** The x coordinate. */
  x: number;
  /** The y coordinate. */
  y: number;
}

/** Options of {@link layout}. */
export interface LayoutOptions {
  /** Width of the area (default 800). */
  readonly width?: number;
  /** Height of the area (default 500). */
  readonly height?: number;
  /** Steps to run (default 300). */
  readonly iterations?: number;
}

/**
 * Positions `count` nodes joined by `edges` (pairs of node indexes) inside the area, with a
 * margin of 8% around it.
 */
export function layout(count: number, edges: ReadonlyArray<readonly [number, number]>, options: LayoutOptions = {}): Placed[] {
  const width = options.width ?? 800;
  const height = options.height ?? 500;
  const iterations = options.iterations ?? 300;
  if (count === 0) return [];
  const radius = Math.min(width, height) * 0.4;
  const nodes: Placed[] = Array.from({ length: count }, (_, i) => ({
    x: width / 2 + radius * Math.cos((2 * Math.PI * i) / count),
    y: height / 2 + radius * Math.sin((2 * Math.PI * i) / count),
  }));
  if (count === 1) return [{ x: width / 2, y: height / 2 }];
  const ideal = Math.sqrt((width * height) / count) * 0.6;
  const dx = new Float64Array(count);
  const dy = new Float64Array(count);
  for (let step = 0; step < iterations; step++) {
    dx.fill(0);
    dy.fill(0);
    for (let i = 0; i < count; i++) {
      const a = nodes[i]!;
      for (let j = i + 1; j < count; j++) {
        const b = nodes[j]!;
        let x = a.x - b.x;
        let y = a.y - b.y;
        let d2 = x * x + y * y;
        if (d2 < 0.01) {
          // coincident nodes are pushed apart in a direction that depends on their indexes
          x = Math.cos(i + j);
          y = Math.sin(i + j);
          d2 = 1;
        }
        const force = (ideal * ideal) / d2;
        dx[i] = dx[i]! + x * force;
        dy[i] = dy[i]! + y * force;
        dx[j] = dx[j]! - x * force;
        dy[j] = dy[j]! - y * force;
      }
    }
    for (const [from, to] of edges) {
      if (from === to) continue;
      const a = nodes[from]!;
      const b = nodes[to]!;
      const x = a.x - b.x;
      const y = a.y - b.y;
      const d = Math.sqrt(x * x + y * y) || 0.01;
      const force = d / ideal;
      dx[from] = dx[from]! - x * force;
      dy[from] = dy[from]! - y * force;
      dx[to] = dx[to]! + x * force;
      dy[to] = dy[to]! + y * force;
    }
    const temperature = (Math.min(width, height) / 10) * (1 - step / iterations) + 0.5;
    for (let i = 0; i < count; i++) {
      const node = nodes[i]!;
      // a weak pull towards the centre keeps unconnected parts in view
      dx[i] = dx[i]! + (width / 2 - node.x) * 0.05;
      dy[i] = dy[i]! + (height / 2 - node.y) * 0.05;
      const length = Math.sqrt(dx[i]! * dx[i]! + dy[i]! * dy[i]!) || 1;
      const move = Math.min(length, temperature);
      node.x += (dx[i]! / length) * move;
      node.y += (dy[i]! / length) * move;
    }
  }
  // scale into the area with a margin (room for the labels)
  const xs = nodes.map((n) => n.x);
  const ys = nodes.map((n) => n.y);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const margin = 0.08;
  const sx = maxX - minX < 1 ? 0 : (width * (1 - 2 * margin)) / (maxX - minX);
  const sy = maxY - minY < 1 ? 0 : (height * (1 - 2 * margin)) / (maxY - minY);
  return nodes.map((n) => ({
    x: sx === 0 ? width / 2 : width * margin + (n.x - minX) * sx,
    y: sy === 0 ? height / 2 : height * margin + (n.y - minY) * sy,
  }));
}
