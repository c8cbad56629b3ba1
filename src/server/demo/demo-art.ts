/**
 * The demo catalogue's pictures, drawn as SVG. The shop never draws them: scripts/render-demo-photos.ts
 * renders them once into the WebP files under photos/, which seeding stores as they are. Run it
 * again after changing a drawing here.
 */

type Palette = readonly [string, ...string[]];
type Stop = readonly [offset: number, color: string, opacity?: number];

interface Placement {
  x: number;
  y: number;
  rotation?: number;
}

interface Area {
  x: number;
  y: number;
  width: number;
  height: number;
}

type NailShape = 'almond' | 'coffin' | 'stiletto' | 'square' | 'oval';

const GOLD: readonly Stop[] = [
  [0, '#fff3c4'],
  [0.45, '#e8b84a'],
  [1, '#a8741c'],
];

/** Rounds to one decimal place so the markup stays short. */
function num(value: number): string {
  return String(Math.round(value * 10) / 10);
}

function radians(degrees: number): number {
  return (degrees * Math.PI) / 180;
}

// Seeded, so every rendering draws exactly the same pictures.
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick(random: () => number, colors: Palette): string {
  return colors[Math.floor(random() * colors.length)] ?? colors[0];
}

function stopList(stops: readonly Stop[]): string {
  return stops
    .map(([offset, color, opacity]) => {
      const alpha = opacity === undefined ? '' : ` stop-opacity="${opacity}"`;
      return `<stop offset="${offset}" stop-color="${color}"${alpha}/>`;
    })
    .join('');
}

function linearGradient(id: string, stops: readonly Stop[], x2 = 0, y2 = 1): string {
  return `<linearGradient id="${id}" x1="0" y1="0" x2="${x2}" y2="${y2}">${stopList(stops)}</linearGradient>`;
}

function radialGradient(id: string, stops: readonly Stop[], cx = 0.5, cy = 0.5, r = 0.5): string {
  return `<radialGradient id="${id}" cx="${cx}" cy="${cy}" r="${r}">${stopList(stops)}</radialGradient>`;
}

function dropShadow(id: string, dy: number, blur: number, opacity: number, color = '#000'): string {
  return (
    `<filter id="${id}" x="-30%" y="-30%" width="160%" height="160%">` +
    `<feDropShadow dx="0" dy="${dy}" stdDeviation="${blur}" flood-color="${color}" flood-opacity="${opacity}"/></filter>`
  );
}

interface Scene {
  background: readonly [inner: string, outer: string];
  defs?: string;
  body: string;
}

function scene({ background: [inner, outer], defs = '', body }: Scene): string {
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" width="800" height="800" viewBox="0 0 800 800">' +
    `<defs>${radialGradient('bg', [[0, inner], [1, outer]], 0.5, 0.42, 0.75)}${defs}</defs>` +
    `<rect width="800" height="800" fill="url(#bg)"/>${body}</svg>`
  );
}

function transform(p: Placement, scale = 1): string {
  const rotated = p.rotation ? ` rotate(${num(p.rotation)})` : '';
  const scaled = scale === 1 ? '' : ` scale(${Math.round(scale * 100) / 100})`;
  return `translate(${num(p.x)} ${num(p.y)})${rotated}${scaled}`;
}

function useAt(id: string, p: Placement, fill?: string, scale = 1): string {
  const paint = fill === undefined ? '' : ` fill="${fill}"`;
  return `<use href="#${id}" transform="${transform(p, scale)}"${paint}/>`;
}

/** Evenly spaced placements along an arc, each turned to face away from its centre. */
function arc(count: number, cx: number, cy: number, radius: number, from: number, to: number): Placement[] {
  return Array.from({ length: count }, (_, i) => {
    const rotation = count === 1 ? from : from + ((to - from) * i) / (count - 1);
    return {
      x: cx + radius * Math.sin(radians(rotation)),
      y: cy - radius * Math.cos(radians(rotation)),
      rotation,
    };
  });
}

function fan(count: number, pivotX: number, pivotY: number, radius: number, spread: number): Placement[] {
  return arc(count, pivotX, pivotY, radius, -spread / 2, spread / 2);
}

function ring(count: number, cx: number, cy: number, radius: number): Placement[] {
  return arc(count, cx, cy, radius, 0, 360 - 360 / count);
}

/** A nail outline centred on the origin with its tip pointing up; points are given in half-widths and half-lengths. */
function nailOutline(shape: NailShape, width: number, length: number): string {
  const point = (x: number, y: number): string => `${num((x * width) / 2)} ${num((y * length) / 2)}`;
  const tips: Record<NailShape, string> = {
    almond: `L${point(-1, -0.1)}C${point(-1, -0.65)} ${point(-0.3, -1)} ${point(0, -1)}C${point(0.3, -1)} ${point(1, -0.65)} ${point(1, -0.1)}`,
    coffin: `L${point(-0.55, -1)}L${point(0.55, -1)}`,
    stiletto: `C${point(-1, -0.2)} ${point(-0.25, -0.7)} ${point(0, -1)}C${point(0.25, -0.7)} ${point(1, -0.2)} ${point(1, 0.55)}`,
    square: `L${point(-1, -0.85)}Q${point(-1, -1)} ${point(-0.8, -1)}L${point(0.8, -1)}Q${point(1, -1)} ${point(1, -0.85)}`,
    oval: `L${point(-1, -0.45)}C${point(-1, -1.15)} ${point(1, -1.15)} ${point(1, -0.45)}`,
  };
  return `M${point(-1, 0.55)}${tips[shape]}L${point(1, 0.55)}Q${point(1, 1)} ${point(0, 1)}Q${point(-1, 1)} ${point(-1, 0.55)}Z`;
}

/** Shared nail outline, clip and gloss, so every nail in a picture is one short <use>. */
function nailDefs(shape: NailShape, width: number, length: number): string {
  const x = width / 2;
  const y = length / 2;
  return (
    `<path id="nail" d="${nailOutline(shape, width, length)}" stroke="#000" stroke-opacity=".08" stroke-width="2"/>` +
    '<clipPath id="nailClip"><use href="#nail"/></clipPath>' +
    `<g id="gloss" fill="#fff"><ellipse cx="${num(-x * 0.45)}" cy="${num(y * 0.05)}" rx="${num(x * 0.14)}" ry="${num(y * 0.5)}" opacity=".45"/>` +
    `<circle cx="${num(-x * 0.3)}" cy="${num(-y * 0.62)}" r="${num(x * 0.1)}" opacity=".5"/></g>`
  );
}

function nailAt(p: Placement, fill: string, art = '', scale = 1): string {
  const painted = art === '' ? '' : `<g clip-path="url(#nailClip)">${art}</g>`;
  return `<g transform="${transform(p, scale)}"><use href="#nail" fill="${fill}"/>${painted}<use href="#gloss"/></g>`;
}

function glitter(seed: number, count: number, area: Area, colors: Palette, minRadius = 1.5, maxRadius = 4): string {
  const random = seededRandom(seed);
  let dots = '';
  for (let i = 0; i < count; i++) {
    const cx = area.x + random() * area.width;
    const cy = area.y + random() * area.height;
    const r = minRadius + random() * (maxRadius - minRadius);
    dots += `<circle cx="${Math.round(cx)}" cy="${Math.round(cy)}" r="${num(r)}" fill="${pick(random, colors)}"/>`;
  }
  return dots;
}

/** A four-pointed star glint. */
function sparkle(x: number, y: number, size: number, fill = '#fff'): string {
  const [left, right, top, bottom] = [num(x - size), num(x + size), num(y - size), num(y + size)];
  const centre = `${num(x)} ${num(y)}`;
  return `<path d="M${num(x)} ${top}Q${centre} ${right} ${num(y)}Q${centre} ${num(x)} ${bottom}Q${centre} ${left} ${num(y)}Q${centre} ${num(x)} ${top}Z" fill="${fill}"/>`;
}

/** A flower centred on the origin; petals take the fill of the <use> that places it. */
function flowerSymbol(id: string, radius: number, petals: number, centre: string, petalWidth = 0.34): string {
  let shapes = '';
  for (let i = 0; i < petals; i++) {
    shapes += `<ellipse cy="${num(-radius * 0.5)}" rx="${num(radius * petalWidth)}" ry="${num(radius * 0.5)}" transform="rotate(${num((360 * i) / petals)})"/>`;
  }
  return `<g id="${id}">${shapes}<circle r="${num(radius * 0.24)}" fill="${centre}"/></g>`;
}

function heartPath(size: number): string {
  const s = (value: number): string => num(value * size);
  return `M0 ${s(0.9)}C${s(-1.1)} ${s(0.2)} ${s(-1.05)} ${s(-0.75)} ${s(-0.5)} ${s(-0.85)}C${s(-0.2)} ${s(-0.9)} 0 ${s(-0.65)} 0 ${s(-0.45)}C0 ${s(-0.65)} ${s(0.2)} ${s(-0.9)} ${s(0.5)} ${s(-0.85)}C${s(1.05)} ${s(-0.75)} ${s(1.1)} ${s(0.2)} 0 ${s(0.9)}Z`;
}

function blushPearlAlmondSet(): string {
  const art = (i: number): string =>
    i % 2 === 0
      ? '<path d="M-70 45Q0 8 70 45" stroke="url(#gold)" stroke-width="5" fill="none"/>' +
        useAt('pearl', { x: -28, y: 82 }) +
        useAt('pearl', { x: 0, y: 72 }, undefined, 1.3) +
        useAt('pearl', { x: 28, y: 82 })
      : glitter(10 + i, 16, { x: -64, y: -145, width: 128, height: 100 }, ['#fff', '#f7d36b'], 1.5, 4);
  const nails = fan(5, 400, 770, 390, 84)
    .map((p, i) => nailAt(p, i % 2 === 0 ? 'url(#blush)' : 'url(#milk)', art(i)))
    .join('');
  const loosePearls = [
    [150, 650, 2.2],
    [196, 690, 1.5],
    [640, 660, 2],
    [600, 700, 1.3],
    [670, 712, 1.6],
  ] as const;
  return scene({
    background: ['#fff4f7', '#f4bfd0'],
    defs:
      nailDefs('almond', 128, 290) +
      linearGradient('blush', [[0, '#f48fb1'], [1, '#fde4ec']]) +
      linearGradient('milk', [[0, '#fbe3dc'], [1, '#f3c9c0']]) +
      linearGradient('gold', GOLD, 1, 0) +
      radialGradient('pearlShine', [[0, '#fff'], [0.6, '#f6e6ea'], [1, '#d9b3bf']], 0.35, 0.35, 0.7) +
      '<circle id="pearl" r="10" fill="url(#pearlShine)"/>' +
      dropShadow('shadow', 14, 14, 0.18, '#a2355c'),
    body:
      `<g filter="url(#shadow)">${nails}</g>` +
      loosePearls.map(([x, y, scale]) => useAt('pearl', { x, y }, undefined, scale)).join('') +
      sparkle(130, 170, 22) +
      sparkle(680, 160, 16) +
      sparkle(630, 100, 9),
  });
}

function midnightGalaxyCoffinSet(): string {
  const nails = [0, 1, 2, 3, 4]
    .map((i) => {
      const p = { x: 150 + i * 125, y: 410 + (i % 2 === 0 ? 20 : -20), rotation: (i - 2) * 5 };
      const art =
        `<ellipse cx="${i * 8 - 16}" cy="${i * 14 - 50}" rx="60" ry="90" fill="url(#nebula)"/>` +
        '<rect x="-60" y="-150" width="120" height="300" fill="url(#stardust)"/>' +
        sparkle(-14, -70 + i * 12, 12) +
        sparkle(18, 30 - i * 8, 7);
      return nailAt(p, 'url(#galaxy)', art);
    })
    .join('');
  return scene({
    background: ['#3d2c7e', '#0f0a26'],
    defs:
      nailDefs('coffin', 116, 300) +
      linearGradient('galaxy', [[0, '#1a1850'], [0.45, '#3f2a8c'], [0.8, '#a34fc2'], [1, '#f08ad0']], 0.4, 1) +
      radialGradient('nebula', [[0, '#ff7ad9', 0.55], [1, '#ff7ad9', 0]]) +
      `<pattern id="stardust" width="70" height="70" patternUnits="userSpaceOnUse">${glitter(
        21,
        12,
        { x: 0, y: 0, width: 70, height: 70 },
        ['#fff', '#ffd6f5', '#9ff3ff'],
        0.8,
        2.4,
      )}</pattern>` +
      dropShadow('shadow', 16, 16, 0.5, '#000'),
    body:
      glitter(2, 28, { x: 0, y: 0, width: 800, height: 800 }, ['#fff', '#cfc6ff'], 0.6, 2) +
      sparkle(110, 150, 20) +
      sparkle(690, 120, 14) +
      sparkle(680, 690, 22, '#ffd6f5') +
      sparkle(120, 680, 10) +
      `<g filter="url(#shadow)">${nails}</g>`,
  });
}

function cherryBlossomStilettoSet(): string {
  const blossoms = (i: number): string =>
    `<path d="M-52 ${110 - i * 8}C-25 50 -5 10 8 -80M-12 20C5 12 20 18 36 4" stroke="#6b3f3a" stroke-width="4" fill="none" stroke-linecap="round"/>` +
    useAt('blossom', { x: 6, y: -62, rotation: i * 20 }, '#f48fb1', 0.85) +
    useAt('blossom', { x: -26, y: 52, rotation: i * 35 }, '#f8bbd0') +
    useAt('blossom', { x: 30, y: 6, rotation: 10 }, '#ec6f9d', 0.65);
  const nails = fan(5, 400, 1000, 560, 52)
    .map((p, i) => nailAt(p, 'url(#sheer)', blossoms(i)))
    .join('');
  const random = seededRandom(3);
  let petals = '';
  for (let i = 0; i < 22; i++) {
    const p = { x: 40 + random() * 720, y: 40 + random() * 720, rotation: random() * 180 };
    petals += `<ellipse rx="9" ry="5" transform="${transform(p)}" fill="${pick(random, ['#f8bbd0', '#f48fb1', '#fce4ec'])}"/>`;
  }
  return scene({
    background: ['#f6fbff', '#c9dff1'],
    defs:
      nailDefs('stiletto', 104, 330) +
      linearGradient('sheer', [[0, '#f6a9bd'], [0.55, '#fbe0e1'], [1, '#fdeeea']]) +
      flowerSymbol('blossom', 30, 5, '#fff3b0', 0.42) +
      dropShadow('shadow', 12, 12, 0.2, '#3d5a80'),
    body: petals + `<g filter="url(#shadow)">${nails}</g>`,
  });
}

function goldFoilFrenchTips(): string {
  const tip =
    '<path d="M-60 -100L60 -100L60 -32Q0 -64 -60 -32Z" fill="#fffaf3"/>' +
    '<path d="M-60 -32Q0 -64 60 -32" stroke="url(#gold)" stroke-width="7" fill="none"/>';
  const nails = ring(10, 400, 400, 215)
    .map((p, i) => nailAt(p, i % 2 === 0 ? 'url(#nude)' : 'url(#rose)', tip))
    .join('');
  const random = seededRandom(4);
  let flakes = '';
  for (let i = 0; i < 18; i++) {
    const angle = random() * Math.PI * 2;
    const distance = Math.sqrt(random()) * 100;
    const p = { x: 400 + Math.cos(angle) * distance, y: 400 + Math.sin(angle) * distance, rotation: random() * 360 };
    const s = 5 + random() * 10;
    flakes += `<path d="M0 ${num(-s)}L${num(s * 0.9)} ${num(-s * 0.2)}L${num(s * 0.4)} ${num(s)}L${num(-s * 0.8)} ${num(s * 0.5)}Z" transform="${transform(p)}"/>`;
  }
  return scene({
    background: ['#fffaf2', '#e8d3ba'],
    defs:
      nailDefs('square', 104, 180) +
      linearGradient('nude', [[0, '#f6d9ca'], [1, '#e9bba6']]) +
      linearGradient('rose', [[0, '#f4cfc8'], [1, '#dea39a']]) +
      linearGradient('gold', GOLD, 1, 1) +
      dropShadow('shadow', 10, 10, 0.2, '#7a5230'),
    body: `<g filter="url(#shadow)">${nails}</g><g fill="url(#gold)">${flakes}</g>`,
  });
}

function pastelDaisyDecals(): string {
  const random = seededRandom(5);
  const petals: Palette = ['#f8a5c2', '#ffe08a', '#9fd3f5', '#ffffff', '#c9b6f2'];
  let daisies = '';
  for (let row = 0; row < 4; row++) {
    for (let col = 0; col < 3; col++) {
      const p = { x: -130 + col * 130, y: -190 + row * 126, rotation: random() * 60 };
      daisies += useAt('daisy', p, pick(random, petals), 0.9 + random() * 0.35);
      daisies += useAt('daisy', { x: p.x + 58, y: p.y + 56 }, pick(random, petals), 0.35);
    }
  }
  return scene({
    background: ['#f7f3ff', '#cdbdf0'],
    defs:
      flowerSymbol('daisy', 50, 10, '#f7c948', 0.2) +
      linearGradient('backing', [[0, '#ffffff'], [1, '#e8eef7']], 1, 1) +
      dropShadow('shadow', 14, 16, 0.22, '#4b3a80'),
    body:
      '<g filter="url(#shadow)">' +
      '<rect x="-230" y="-290" width="460" height="580" rx="26" fill="#e4dcfa" transform="translate(440 400) rotate(9)"/>' +
      '<g transform="translate(390 410) rotate(-5)">' +
      '<rect x="-230" y="-290" width="460" height="580" rx="26" fill="url(#backing)"/>' +
      '<rect x="-205" y="-265" width="410" height="530" rx="14" fill="none" stroke="#b9a6e8" stroke-width="3" stroke-dasharray="10 9"/>' +
      `<g stroke="#00000014" stroke-width="1.5">${daisies}</g></g></g>` +
      sparkle(120, 130, 18) +
      sparkle(690, 640, 24) +
      sparkle(700, 170, 12),
  });
}

function crystalRhinestonePalette(): string {
  const colors = ['#f4fbff', '#ff8fb8', '#b9a4ff', '#4f7dff', '#3ccf9a', '#ffc94d', '#ff6b6b', '#6fe0ff'] as const;
  const random = seededRandom(6);
  let dividers = '';
  let gems = '';
  colors.forEach((color, i) => {
    const edge = radians(i * 45 + 22.5);
    dividers += `M${num(Math.sin(edge) * 70)} ${num(-Math.cos(edge) * 70)}L${num(Math.sin(edge) * 240)} ${num(-Math.cos(edge) * 240)}`;
    let compartment = '';
    // Rows of stones spread across each wedge, roomier towards the rim.
    for (const [distance, perRow] of [[100, 2], [140, 2], [180, 3], [218, 3]] as const) {
      for (let k = 0; k < perRow; k++) {
        const a = radians(i * 45 + (k - (perRow - 1) / 2) * (perRow === 2 ? 16 : 12) + (random() - 0.5) * 5);
        const d = distance + (random() - 0.5) * 10;
        const size = random() < 0.3 ? 'chip' : 'gem';
        compartment += `<use href="#${size}" x="${Math.round(Math.sin(a) * d)}" y="${Math.round(-Math.cos(a) * d)}"/>`;
      }
    }
    gems += `<g fill="${color}">${compartment}</g>`;
  });
  const loose = [
    [140, 690, '#ff8fb8'],
    [190, 720, '#ffffff'],
    [650, 700, '#6fe0ff'],
    [700, 660, '#ffc94d'],
  ] as const;
  return scene({
    background: ['#e6f8f5', '#7fc7bf'],
    defs:
      '<g id="gem"><circle r="15"/><path d="M-9 -3L0 -11L9 -3L0 9Z" fill="#fff" opacity=".6"/><circle r="15" fill="url(#facet)"/></g>' +
      '<g id="chip"><circle r="10"/><path d="M-6 -2L0 -7L6 -2L0 6Z" fill="#fff" opacity=".6"/><circle r="10" fill="url(#facet)"/></g>' +
      radialGradient('facet', [[0, '#fff', 0], [0.7, '#000', 0.05], [1, '#000', 0.3]], 0.4, 0.4, 0.6) +
      radialGradient('case', [[0, '#ffffff', 0.9], [1, '#dff3f0', 0.75]]) +
      dropShadow('shadow', 18, 18, 0.25, '#1f5c57'),
    body:
      '<g transform="translate(400 390)"><g filter="url(#shadow)"><circle r="260" fill="url(#case)" stroke="#fff" stroke-width="10"/></g>' +
      `<path d="${dividers}" stroke="#b5dcd7" stroke-width="6"/>` +
      `<circle r="70" fill="#f3fbfa" stroke="#b5dcd7" stroke-width="6"/>${gems}` +
      '<circle r="28" fill="#b5dcd7"/></g>' +
      loose.map(([x, y, color]) => useAt('gem', { x, y }, color, 1.2)).join('') +
      sparkle(110, 120, 22) +
      sparkle(700, 140, 16) +
      sparkle(640, 600, 12),
  });
}

function tinyHeartCharms(): string {
  const random = seededRandom(7);
  const finishes: Palette = ['url(#gold)', 'url(#gold)', 'url(#roseGold)', '#f48fb1'];
  let jarHearts = '';
  // A loose pile: full rows at the bottom, thinning towards the top of the jar.
  for (const [y, count] of [[650, 5], [598, 5], [546, 4], [494, 4], [446, 3]] as const) {
    for (let k = 0; k < count; k++) {
      const x = 400 + (k - (count - 1) / 2) * 52 + (random() - 0.5) * 10;
      const p = { x, y: y + (random() - 0.5) * 10, rotation: (random() - 0.5) * 60 };
      jarHearts += useAt('heart', p, pick(random, finishes));
    }
  }
  const spilled = [
    { x: 170, y: 700, rotation: -20 },
    { x: 230, y: 740, rotation: 15 },
    { x: 620, y: 735, rotation: 25 },
    { x: 670, y: 690, rotation: -10 },
  ]
    .map((p, i) => useAt('heart', p, finishes[i % finishes.length] ?? finishes[0], 1.2))
    .join('');
  return scene({
    background: ['#fff6ef', '#f7c2a2'],
    defs:
      `<g id="heart"><circle cy="-27" r="5" fill="none" stroke="#d9a441" stroke-width="2.5"/><path d="${heartPath(25)}"/>` +
      '<ellipse cx="-8" cy="-8" rx="5" ry="3" fill="#fff" opacity=".7" transform="rotate(-35 -8 -8)"/></g>' +
      linearGradient('gold', GOLD, 1, 1) +
      linearGradient('roseGold', [[0, '#ffe1d6'], [0.5, '#e9a08c'], [1, '#b4675a']], 1, 1) +
      linearGradient('glass', [[0, '#ffffff', 0.45], [0.3, '#ffffff', 0.08], [1, '#ffffff', 0.25]], 1, 0) +
      linearGradient('lid', [[0, '#f3c9a6'], [1, '#b8805a']]) +
      dropShadow('shadow', 12, 12, 0.2, '#8a4a2a'),
    body:
      '<g filter="url(#shadow)"><rect x="245" y="320" width="310" height="390" rx="56" fill="#fff" opacity=".3"/></g>' +
      jarHearts +
      '<rect x="245" y="320" width="310" height="390" rx="56" fill="url(#glass)" stroke="#fff" stroke-width="6" stroke-opacity=".8"/>' +
      '<rect x="268" y="380" width="18" height="270" rx="9" fill="#fff" opacity=".55"/>' +
      '<rect x="280" y="250" width="240" height="86" rx="18" fill="url(#lid)"/>' +
      '<path d="M300 272H500M300 292H500M300 312H500" stroke="#9c6a48" stroke-width="3" opacity=".35"/>' +
      `<g filter="url(#shadow)">${spilled}</g>` +
      sparkle(160, 220, 22) +
      sparkle(640, 290, 16) +
      sparkle(590, 180, 10),
  });
}

function handPaintedLemonTips(): string {
  const lemonSlice =
    '<circle cy="-15" r="38" fill="#ffd43b"/><circle cy="-15" r="31" fill="#fff6b8"/>' +
    '<path d="M0 -46V16M-31 -15H31M-22 -37L22 7M22 -37L-22 7" stroke="#ffd43b" stroke-width="3"/>' +
    '<path d="M-30 35Q-5 20 10 40Q-10 55 -30 35Z" fill="#6cc070"/>';
  const wholeLemons =
    '<ellipse cx="-12" cy="-20" rx="26" ry="20" fill="#ffd43b" transform="rotate(-20 -12 -20)"/>' +
    '<path d="M4 -38Q25 -55 38 -40Q20 -28 4 -38Z" fill="#6cc070"/>' +
    glitter(8, 8, { x: -45, y: 10, width: 90, height: 55 }, ['#fff'], 3, 5);
  const tips = fan(5, 400, 760, 450, 70);
  const body = fan(5, 400, 760, 430, 70)
    .map((stick, i) => {
      const tip = tips[i] ?? stick;
      return (
        `<rect x="-6" y="0" width="12" height="400" rx="6" fill="url(#stick)" transform="${transform(stick)}"/>` +
        nailAt(tip, i % 2 === 0 ? '#fffbe6' : '#cdeef8', i % 2 === 0 ? lemonSlice : wholeLemons)
      );
    })
    .join('');
  return scene({
    background: ['#f3fcf6', '#b4e2c6'],
    defs:
      nailDefs('oval', 112, 160) +
      linearGradient('stick', [[0, '#ffffff'], [1, '#d6d9de']], 1, 0) +
      radialGradient('clip', [[0, '#ffffff'], [1, '#9aa3ad']], 0.35, 0.35, 0.7) +
      dropShadow('shadow', 12, 12, 0.2, '#2f6b47'),
    body:
      `<g filter="url(#shadow)">${body}<circle cx="400" cy="730" r="34" fill="url(#clip)"/></g>` +
      '<circle cx="400" cy="730" r="14" fill="#8d96a0"/>' +
      sparkle(110, 160, 20) +
      sparkle(700, 200, 14),
  });
}

function roseGlassNailFile(): string {
  return scene({
    background: ['#fffdf2', '#f4dc94'],
    defs:
      linearGradient('glass', [[0, '#ffd6e4'], [0.5, '#f58fb4'], [1, '#ffc2d6']]) +
      linearGradient('velvet', [[0, '#b77396'], [0.5, '#94506f'], [1, '#7a3b5a']]) +
      '<pattern id="grit" width="9" height="9" patternUnits="userSpaceOnUse"><circle cx="2" cy="2" r="1.4" fill="#fff" opacity=".7"/><circle cx="6.5" cy="6.5" r="1.1" fill="#b0306a" opacity=".3"/></pattern>' +
      flowerSymbol('bloom', 30, 5, '#ffe08a', 0.4) +
      dropShadow('shadow', 16, 14, 0.22, '#8a6a10'),
    body:
      '<g filter="url(#shadow)"><g transform="translate(400 410) rotate(-40)">' +
      '<rect x="-330" y="-44" width="660" height="88" rx="44" fill="url(#glass)"/>' +
      '<rect x="-60" y="-28" width="370" height="56" rx="28" fill="url(#grit)"/>' +
      '<rect x="-300" y="-36" width="600" height="9" rx="4.5" fill="#fff" opacity=".6"/>' +
      '<rect x="-350" y="-62" width="300" height="124" rx="20" fill="url(#velvet)"/>' +
      '<path d="M-336 -48H-64V48H-336Z" fill="none" stroke="#f3c6da" stroke-width="3" stroke-dasharray="9 7"/>' +
      `${useAt('bloom', { x: -200, y: 0}, '#fde4ec')}` +
      '</g></g>' +
      sparkle(620, 170, 26) +
      sparkle(680, 290, 12) +
      sparkle(170, 650, 18) +
      sparkle(560, 660, 10),
  });
}

function vanillaCuticleOil(): string {
  return scene({
    background: ['#fbf8ee', '#c5d1ad'],
    defs:
      linearGradient('amber', [[0, '#f6b55e'], [0.45, '#c9741e'], [1, '#7a3f10']], 1, 0) +
      linearGradient('bulb', [[0, '#fdf3e1'], [1, '#d9c3a0']], 1, 0) +
      linearGradient('collar', GOLD, 1, 0) +
      linearGradient('pod', [[0, '#5b3520'], [1, '#2e1a0f']]) +
      flowerSymbol('vanillaFlower', 70, 6, '#f1c24b', 0.36) +
      dropShadow('shadow', 18, 16, 0.25, '#4a5a2a'),
    body:
      '<g filter="url(#shadow)">' +
      '<path d="M120 700C260 660 420 690 560 640" stroke="url(#pod)" stroke-width="14" fill="none" stroke-linecap="round"/>' +
      '<path d="M150 728C300 700 440 722 600 680" stroke="url(#pod)" stroke-width="12" fill="none" stroke-linecap="round"/>' +
      '<rect x="290" y="330" width="220" height="330" rx="44" fill="url(#amber)"/>' +
      '<rect x="340" y="270" width="120" height="80" rx="10" fill="url(#collar)"/>' +
      '<path d="M360 270V190Q360 130 400 130Q440 130 440 190V270Z" fill="url(#bulb)"/>' +
      '</g>' +
      '<path d="M355 290H445M355 310H445M355 330H445" stroke="#a8741c" stroke-width="3" opacity=".5"/>' +
      '<rect x="312" y="360" width="16" height="260" rx="8" fill="#fff" opacity=".35"/>' +
      '<rect x="325" y="430" width="150" height="160" rx="14" fill="#fff8ea"/>' +
      `${useAt('vanillaFlower', { x: 400, y: 500}, '#f6e7b8', 0.75)}` +
      '<path d="M345 570H455" stroke="#c9741e" stroke-width="4" stroke-linecap="round"/>' +
      '<path d="M560 380Q585 420 585 440A25 25 0 0 1 535 440Q535 420 560 380Z" fill="#f1a63f" opacity=".9"/>' +
      '<ellipse cx="551" cy="438" rx="6" ry="9" fill="#fff" opacity=".6"/>' +
      `${useAt('vanillaFlower', { x: 640, y: 600, rotation: 12 }, '#fff3cf', 1.3)}` +
      sparkle(170, 200, 20) +
      sparkle(640, 190, 14),
  });
}

function pearlKeepsakeStorageBox(): string {
  const sets: Palette = ['#f48fb1', '#9fd3f5', '#c9b6f2', '#ffd43b', '#7ed6a5', '#ff8a65'];
  let compartments = '';
  sets.forEach((color, i) => {
    const x = 210 + (i % 3) * 150;
    const y = 345 + Math.floor(i / 3) * 190;
    compartments += `<rect x="${x - 68}" y="${y - 88}" width="136" height="176" rx="16" fill="url(#well)"/>`;
    compartments += fan(5, x, y + 150, 150, 40)
      .map((p) => nailAt(p, color))
      .join('');
  });
  return scene({
    background: ['#fdf1ea', '#e3a48c'],
    defs:
      nailDefs('almond', 28, 66) +
      linearGradient('pearl', [[0, '#ffffff'], [0.6, '#f7efeb'], [1, '#e7d6d0']], 1, 1) +
      linearGradient('well', [[0, '#eadbd5'], [1, '#fbf5f2']]) +
      linearGradient('lid', [[0, '#fbe7ef'], [1, '#e7b7c8']], 1, 1) +
      flowerSymbol('emblem', 60, 8, '#f3c56b', 0.26) +
      dropShadow('shadow', 18, 18, 0.25, '#7a3a22'),
    body:
      '<g filter="url(#shadow)">' +
      '<g transform="translate(470 330) rotate(14)"><rect x="-250" y="-190" width="500" height="380" rx="34" fill="url(#lid)"/>' +
      '<rect x="-225" y="-165" width="450" height="330" rx="22" fill="none" stroke="#fff" stroke-width="4" opacity=".7"/>' +
      `${useAt('emblem', { x: 150, y: -90}, '#fff')}</g>` +
      '<rect x="110" y="230" width="500" height="420" rx="34" fill="url(#pearl)"/></g>' +
      compartments +
      sparkle(690, 620, 20) +
      sparkle(110, 140, 14),
  });
}

function pressOnStarterKit(): string {
  const nails = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
    .map((i) => {
      const size = 1 - (i % 5) * 0.07;
      const p = { x: 190 + (i % 5) * 62, y: 250 + Math.floor(i / 5) * 120 };
      return nailAt(p, 'url(#nude)', '', size);
    })
    .join('');
  return scene({
    background: ['#f1f2ff', '#a6b0ee'],
    defs:
      nailDefs('coffin', 48, 96) +
      linearGradient('nude', [[0, '#f7c9c2'], [1, '#eaa9a0']]) +
      linearGradient('glue', [[0, '#ff9fbf'], [1, '#e0608f']], 1, 0) +
      linearGradient('wood', [[0, '#f0d2a8'], [1, '#c99c66']], 1, 0) +
      dropShadow('shadow', 14, 14, 0.22, '#2e3a80') +
      dropShadow('lift', 4, 4, 0.15, '#2e3a80'),
    body:
      '<g filter="url(#shadow)"><rect x="110" y="140" width="580" height="540" rx="36" fill="#fff"/></g>' +
      '<g filter="url(#lift)">' +
      '<rect x="145" y="180" width="340" height="260" rx="18" fill="#f4f1fb"/>' +
      `${nails}` +
      '<rect x="530" y="250" width="90" height="170" rx="22" fill="url(#glue)"/>' +
      '<path d="M548 252L575 172L602 252Z" fill="#c2185b"/>' +
      '<rect x="548" y="300" width="54" height="70" rx="8" fill="#fff" opacity=".85"/>' +
      '<rect x="555" y="320" width="40" height="6" rx="3" fill="#f48fb1"/>' +
      '<rect x="555" y="335" width="30" height="6" rx="3" fill="#f48fb1"/>' +
      '<rect x="150" y="490" width="380" height="46" rx="23" fill="#ececf4" transform="rotate(-6 340 513)"/>' +
      '<rect x="160" y="498" width="250" height="30" rx="15" fill="#b8b9d6" transform="rotate(-6 340 513)"/>' +
      '<path d="M170 605L520 585L540 595L520 605L170 617Z" fill="url(#wood)"/>' +
      '<rect x="560" y="480" width="90" height="90" rx="10" fill="#e6f4fb" transform="rotate(8 605 525)"/>' +
      '<rect x="575" y="610" width="80" height="40" rx="8" fill="#e6f4fb" transform="rotate(-10 615 630)"/>' +
      '</g>' +
      '<path d="M580 500l44 48" stroke="#9fd3f5" stroke-width="4" stroke-dasharray="6 6"/>' +
      sparkle(700, 110, 20) +
      sparkle(110, 720, 16),
  });
}

function blossomGiftBox(): string {
  return scene({
    background: ['#8e2747', '#2d0716'],
    defs:
      linearGradient('box', [[0, '#fde2ea'], [1, '#f2a7bd']], 1, 1) +
      linearGradient('lidShade', [[0, '#fff0f4'], [1, '#f6b9cb']]) +
      linearGradient('ribbon', GOLD, 1, 0) +
      linearGradient('loop', GOLD, 1, 1) +
      flowerSymbol('blossom', 40, 5, '#ffe08a', 0.42) +
      dropShadow('shadow', 22, 20, 0.45, '#000'),
    body:
      `<g fill-opacity=".25">${glitter(13, 26, { x: 0, y: 0, width: 800, height: 800 }, ['#ffcf6b', '#ff8fb1', '#fff'], 3, 18)}</g>` +
      '<g filter="url(#shadow)">' +
      '<rect x="200" y="420" width="400" height="280" rx="16" fill="url(#box)"/>' +
      '<rect x="370" y="420" width="60" height="280" fill="url(#ribbon)"/>' +
      '<rect x="180" y="350" width="440" height="100" rx="18" fill="url(#lidShade)"/>' +
      '<rect x="370" y="350" width="60" height="100" fill="url(#ribbon)"/>' +
      '<path d="M400 350C330 250 230 260 250 320C265 365 350 360 400 350Z" fill="url(#loop)"/>' +
      '<path d="M400 350C470 250 570 260 550 320C535 365 450 360 400 350Z" fill="url(#loop)"/>' +
      '<path d="M395 352L330 440L355 445L385 400ZM405 352L470 440L445 445L415 400Z" fill="#d9a441"/>' +
      '<circle cx="400" cy="350" r="26" fill="#e8b84a"/>' +
      '</g>' +
      '<path d="M400 350C335 275 270 290 280 318" stroke="#fff" stroke-width="5" fill="none" opacity=".4" stroke-linecap="round"/>' +
      '<rect x="200" y="440" width="400" height="10" fill="#000" opacity=".06"/>' +
      useAt('blossom', { x: 260, y: 560, rotation: 10 }, '#fff') +
      useAt('blossom', { x: 520, y: 620, rotation: 40 }, '#f48fb1', 0.8) +
      useAt('blossom', { x: 540, y: 520}, '#fff', 0.6) +
      sparkle(140, 170, 24, '#ffe6a8') +
      sparkle(660, 200, 18, '#ffe6a8') +
      sparkle(680, 700, 12, '#ffe6a8'),
  });
}

function deluxeNailArtistKit(): string {
  const brushes = ['#1f1f2e', '#f48fb1', '#1f1f2e', '#c9b6f2', '#1f1f2e']
    .map((handle, i) => {
      const x = 210 + i * 95;
      return (
        `<rect x="${x - 9}" y="140" width="18" height="165" rx="9" fill="${handle}"/>` +
        `<rect x="${x - 8}" y="305" width="16" height="26" fill="url(#gold)"/>` +
        `<path d="M${x - 8} 330C${x - 8} 350 ${x} ${385 - i * 6} ${x} ${372 - i * 6}C${x} ${385 - i * 6} ${x + 8} 350 ${x + 8} 330Z" fill="#3b2a20"/>`
      );
    })
    .join('');
  const polishes = ['#e0457b', '#7b5cff', '#ffb347', '#2ec4b6']
    .map((color, i) => {
      const x = 205 + i * 90;
      return (
        `<rect x="${x - 32}" y="520" width="64" height="90" rx="16" fill="${color}"/>` +
        `<rect x="${x - 18}" y="470" width="36" height="52" rx="6" fill="#1f1f2e"/>` +
        `<rect x="${x - 22}" y="532" width="8" height="60" rx="4" fill="#fff" opacity=".4"/>`
      );
    })
    .join('');
  const pots = [
    [590, 500, '#ffd6f5'],
    [650, 560, '#ffe08a'],
    [590, 620, '#9ff3ff'],
  ] as const;
  return scene({
    background: ['#2f7a6f', '#0c2b27'],
    defs:
      linearGradient('shell', [[0, '#fbe7ef'], [1, '#e5b5c6']], 1, 1) +
      linearGradient('satin', [[0, '#fff9f5'], [1, '#f1dfe2']], 1, 1) +
      linearGradient('gold', GOLD, 1, 0) +
      dropShadow('shadow', 22, 20, 0.45, '#000'),
    body:
      '<g filter="url(#shadow)"><rect x="110" y="100" width="580" height="600" rx="34" fill="url(#shell)"/></g>' +
      '<rect x="135" y="125" width="530" height="255" rx="20" fill="url(#satin)"/>' +
      '<rect x="135" y="420" width="530" height="255" rx="20" fill="url(#satin)"/>' +
      '<rect x="110" y="388" width="580" height="24" fill="#d49aae"/>' +
      '<rect x="340" y="388" width="120" height="24" rx="6" fill="url(#gold)"/>' +
      brushes +
      '<rect x="160" y="250" width="480" height="34" rx="6" fill="#f48fb1" opacity=".85"/>' +
      polishes +
      pots
        .map(
          ([x, y, color]) =>
            `<circle cx="${x}" cy="${y}" r="34" fill="#fff"/><circle cx="${x}" cy="${y}" r="26" fill="${color}"/>` +
            glitter(x + y, 8, { x: x - 16, y: y - 16, width: 32, height: 32 }, ['#fff', '#e8b84a'], 1.5, 3),
        )
        .join('') +
      sparkle(60, 420, 18, '#ffe6a8') +
      sparkle(740, 380, 14, '#ffe6a8'),
  });
}

function nailSizingKit(): string {
  // Twelve sample tips, widest first, in two rows on their card.
  const tips = Array.from({ length: 12 }, (_, size) => {
    const p = { x: 205 + (size % 6) * 78, y: 255 + Math.floor(size / 6) * 150 };
    return nailAt(p, 'url(#clear)', '', 1 - size * 0.045);
  }).join('');
  const dots = Array.from({ length: 12 }, (_, size) => `<circle cx="${205 + (size % 6) * 78}" cy="${330 + Math.floor(size / 6) * 150}" r="${7 - (size % 6) * 0.6}" fill="#c9a0dc"/>`).join('');
  const ticks = Array.from({ length: 41 }, (_, i) => {
    const x = 140 + i * 13;
    const height = i % 10 === 0 ? 30 : i % 5 === 0 ? 22 : 13;
    return `<rect x="${x}" y="598" width="2.5" height="${height}" fill="#6b4a1f"/>`;
  }).join('');
  const boxes = Array.from({ length: 10 }, (_, i) => `<rect x="${512 + (i % 5) * 26}" y="${660 + Math.floor(i / 5) * 30}" width="20" height="22" rx="4" fill="#fff" stroke="#c9a0dc" stroke-width="2"/>`).join('');
  return scene({
    background: ['#fbf7ff', '#cdb8ea'],
    defs:
      nailDefs('oval', 62, 104) +
      linearGradient('clear', [[0, '#fdf3ff'], [1, '#e9d9f6']]) +
      linearGradient('tape', [[0, '#ffe9a8'], [1, '#f6cf63']]) +
      dropShadow('shadow', 14, 14, 0.2, '#5b3d8a'),
    body:
      '<g filter="url(#shadow)">' +
      '<rect x="140" y="150" width="520" height="370" rx="30" fill="#fff"/>' +
      '<rect x="120" y="580" width="560" height="60" rx="10" fill="url(#tape)" transform="rotate(-3 400 610)"/>' +
      '<rect x="490" y="640" width="170" height="90" rx="12" fill="#f6effc" transform="rotate(4 575 685)"/>' +
      '</g>' +
      tips +
      dots +
      `<g transform="rotate(-3 400 610)">${ticks}</g>` +
      `<g transform="rotate(4 575 685)">${boxes}</g>` +
      sparkle(110, 110, 20) +
      sparkle(700, 140, 14, '#fff7d6'),
  });
}

/** Each demo photo's drawing, by the photo's name in the demo catalogue. */
export const demoArt: Readonly<Record<string, () => string>> = {
  'blush-pearl-almond-set': blushPearlAlmondSet,
  'midnight-galaxy-coffin-set': midnightGalaxyCoffinSet,
  'cherry-blossom-stilettos': cherryBlossomStilettoSet,
  'gold-foil-french-tips': goldFoilFrenchTips,
  'pastel-daisy-decals': pastelDaisyDecals,
  'crystal-rhinestone-wheel': crystalRhinestonePalette,
  'tiny-heart-charms': tinyHeartCharms,
  'hand-painted-lemon-tips': handPaintedLemonTips,
  'rose-glass-nail-file': roseGlassNailFile,
  'vanilla-cuticle-oil': vanillaCuticleOil,
  'pearl-keepsake-storage-box': pearlKeepsakeStorageBox,
  'press-on-starter-kit': pressOnStarterKit,
  'nail-sizing-kit': nailSizingKit,
  'blossom-gift-box': blossomGiftBox,
  'deluxe-nail-artist-kit': deluxeNailArtistKit,
};
