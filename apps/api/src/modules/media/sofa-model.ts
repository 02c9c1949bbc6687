import { type BoxPart, boxesToGlb, type GlbMaterial } from './glb.ts';

// The demo sofa of the 3D viewer (/sofa-3d): a three-seater built from boxes, 2.1 m wide,
// 0.9 m deep and 0.86 m high, standing on the floor (y = 0) and facing +Z.

const W = 2.1; // overall width
const D = 0.9; // overall depth
const LEG = 0.12; // leg height
const BASE = 0.2; // seat base height above the legs
const ARM_W = 0.18;
const ARM_H = 0.62;
const BACK_D = 0.2;
const BACK_H = 0.86;
const CUSHION_H = 0.16;

/** glTF colour factors are linear; designers pick sRGB hex. */
function linear(hex: string): [number, number, number, number] {
  const n = Number.parseInt(hex.replace('#', ''), 16);
  const c = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((v) => {
    const s = v / 255;
    return Number((s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4).toFixed(4));
  });
  return [c[0]!, c[1]!, c[2]!, 1];
}

const MATERIALS: GlbMaterial[] = [
  { name: 'upholstery', color: linear('#2f6b62'), roughness: 0.9 },
  { name: 'cushion', color: linear('#3d8276'), roughness: 0.95 },
  { name: 'wood', color: linear('#5c3d28'), roughness: 0.55 },
];

export function sofaParts(): BoxPart[] {
  const parts: BoxPart[] = [];
  const innerW = W - 2 * ARM_W;
  parts.push({ name: 'base', center: [0, LEG + BASE / 2, 0], size: [W, BASE, D], material: 'upholstery' });
  parts.push({ name: 'back', center: [0, LEG + BACK_H / 2 - LEG / 2, -(D - BACK_D) / 2], size: [W, BACK_H - LEG, BACK_D], material: 'upholstery' });
  for (const side of [-1, 1]) {
    parts.push({
      name: side < 0 ? 'arm-left' : 'arm-right',
      center: [(side * (W - ARM_W)) / 2, LEG + (ARM_H - LEG) / 2, 0],
      size: [ARM_W, ARM_H - LEG, D],
      material: 'upholstery',
    });
  }
  const seats = 3;
  const gap = 0.015;
  const seatW = (innerW - gap * (seats - 1)) / seats;
  const seatD = D - BACK_D - 0.02;
  for (let i = 0; i < seats; i++) {
    const x = -innerW / 2 + seatW / 2 + i * (seatW + gap);
    parts.push({
      name: `seat-cushion-${i + 1}`,
      center: [x, LEG + BASE + CUSHION_H / 2, (D - seatD) / 2],
      size: [seatW, CUSHION_H, seatD],
      material: 'cushion',
    });
    parts.push({
      name: `back-cushion-${i + 1}`,
      center: [x, LEG + BASE + CUSHION_H + 0.19, -(D / 2) + BACK_D + 0.07],
      size: [seatW, 0.36, 0.14],
      material: 'cushion',
    });
  }
  for (const [sx, sz] of [
    [-1, -1],
    [1, -1],
    [-1, 1],
    [1, 1],
  ] as const) {
    parts.push({
      name: `leg-${sx < 0 ? 'l' : 'r'}${sz < 0 ? 'b' : 'f'}`,
      center: [sx * (W / 2 - 0.08), LEG / 2, sz * (D / 2 - 0.08)],
      size: [0.05, LEG, 0.05],
      material: 'wood',
    });
  }
  return parts;
}

let cached: Buffer | null = null;

/** The sofa as a .glb; built once per process (a pure function of this file). */
export function sofaGlb(): Buffer {
  cached ??= boxesToGlb(sofaParts(), MATERIALS, { name: 'Sofa', generator: 'storefront sofa-model.ts' });
  return cached;
}
