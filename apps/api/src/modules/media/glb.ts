// A small writer for binary glTF 2.0 (.glb) models made of boxes: enough for the demo
// sofa of the 3D viewer, drawn by the project rather than downloaded.
//
// Layout of a .glb (glTF 2.0 spec, "Binary glTF Layout"): a 12-byte header (magic
// "glTF", version 2, total length), then a JSON chunk padded with spaces to 4 bytes,
// then a BIN chunk padded with zeros to 4 bytes. All little-endian.

export type Vec3 = [number, number, number];
export type Rgba = [number, number, number, number];

export interface BoxPart {
  name: string;
  /** Centre of the box, in metres; +Y is up, +Z faces the viewer. */
  center: Vec3;
  /** Full width (x), height (y) and depth (z), in metres. */
  size: Vec3;
  material: string;
}

export interface GlbMaterial {
  name: string;
  color: Rgba;
  roughness: number;
  metallic?: number;
}

const GLB_MAGIC = 0x46546c67; // "glTF"
const CHUNK_JSON = 0x4e4f534a; // "JSON"
const CHUNK_BIN = 0x004e4942; // "BIN\0"
const FLOAT = 5126;
const UNSIGNED_SHORT = 5123;
const ARRAY_BUFFER = 34962;
const ELEMENT_ARRAY_BUFFER = 34963;

/** A unit cube centred on the origin: 6 faces × 4 vertices, each face with its own normal. */
function unitCube(): { positions: Float32Array; normals: Float32Array; indices: Uint16Array } {
  const faces: { n: Vec3; u: Vec3; v: Vec3 }[] = [
    { n: [1, 0, 0], u: [0, 0, -1], v: [0, 1, 0] },
    { n: [-1, 0, 0], u: [0, 0, 1], v: [0, 1, 0] },
    { n: [0, 1, 0], u: [1, 0, 0], v: [0, 0, -1] },
    { n: [0, -1, 0], u: [1, 0, 0], v: [0, 0, 1] },
    { n: [0, 0, 1], u: [1, 0, 0], v: [0, 1, 0] },
    { n: [0, 0, -1], u: [-1, 0, 0], v: [0, 1, 0] },
  ];
  const positions: number[] = [];
  const normals: number[] = [];
  const indices: number[] = [];
  faces.forEach(({ n, u, v }, f) => {
    for (const [a, b] of [
      [-1, -1],
      [1, -1],
      [1, 1],
      [-1, 1],
    ] as const) {
      positions.push(...([0, 1, 2].map((i) => 0.5 * n[i]! + 0.5 * a * u[i]! + 0.5 * b * v[i]!) as Vec3));
      normals.push(...n);
    }
    // Counter-clockwise seen from outside (u × v = n), as glTF requires for front faces.
    const o = f * 4;
    indices.push(o, o + 1, o + 2, o, o + 2, o + 3);
  });
  return { positions: new Float32Array(positions), normals: new Float32Array(normals), indices: new Uint16Array(indices) };
}

const pad4 = (n: number) => (n + 3) & ~3;

/**
 * Builds a .glb of boxes: one shared unit-cube mesh per material, and one node per part
 * that scales and places it. Deterministic: the same parts give the same bytes.
 */
export function boxesToGlb(parts: BoxPart[], materials: GlbMaterial[], opts: { name: string; generator?: string }): Buffer {
  const cube = unitCube();
  const views = [cube.positions, cube.normals, cube.indices];
  const offsets: number[] = [];
  let length = 0;
  for (const v of views) {
    offsets.push(length);
    length = pad4(length + v.byteLength);
  }
  const bin = Buffer.alloc(length);
  views.forEach((v, i) => {
    Buffer.from(v.buffer, v.byteOffset, v.byteLength).copy(bin, offsets[i]);
  });

  const materialIndex = new Map(materials.map((m, i) => [m.name, i]));
  for (const p of parts) if (!materialIndex.has(p.material)) throw new Error(`part ${p.name} uses unknown material ${p.material}`);

  const json = {
    asset: { version: '2.0', generator: opts.generator ?? 'storefront glb writer' },
    scene: 0,
    scenes: [{ name: opts.name, nodes: [0] }],
    nodes: [
      { name: opts.name, children: parts.map((_p, i) => i + 1) },
      ...parts.map((p) => ({ name: p.name, mesh: materialIndex.get(p.material)!, translation: p.center, scale: p.size })),
    ],
    meshes: materials.map((m, i) => ({
      name: `box-${m.name}`,
      primitives: [{ attributes: { POSITION: 0, NORMAL: 1 }, indices: 2, material: i, mode: 4 }],
    })),
    materials: materials.map((m) => ({
      name: m.name,
      pbrMetallicRoughness: { baseColorFactor: m.color, metallicFactor: m.metallic ?? 0, roughnessFactor: m.roughness },
    })),
    accessors: [
      { bufferView: 0, componentType: FLOAT, count: cube.positions.length / 3, type: 'VEC3', min: [-0.5, -0.5, -0.5], max: [0.5, 0.5, 0.5] },
      { bufferView: 1, componentType: FLOAT, count: cube.normals.length / 3, type: 'VEC3' },
      { bufferView: 2, componentType: UNSIGNED_SHORT, count: cube.indices.length, type: 'SCALAR' },
    ],
    bufferViews: [
      { buffer: 0, byteOffset: offsets[0], byteLength: cube.positions.byteLength, target: ARRAY_BUFFER },
      { buffer: 0, byteOffset: offsets[1], byteLength: cube.normals.byteLength, target: ARRAY_BUFFER },
      { buffer: 0, byteOffset: offsets[2], byteLength: cube.indices.byteLength, target: ELEMENT_ARRAY_BUFFER },
    ],
    buffers: [{ byteLength: bin.length }],
  };

  const jsonBytes = Buffer.from(JSON.stringify(json), 'utf8');
  const jsonChunk = Buffer.alloc(pad4(jsonBytes.length), 0x20);
  jsonBytes.copy(jsonChunk);
  const total = 12 + 8 + jsonChunk.length + 8 + bin.length;
  const out = Buffer.alloc(total);
  out.writeUInt32LE(GLB_MAGIC, 0);
  out.writeUInt32LE(2, 4);
  out.writeUInt32LE(total, 8);
  out.writeUInt32LE(jsonChunk.length, 12);
  out.writeUInt32LE(CHUNK_JSON, 16);
  jsonChunk.copy(out, 20);
  const binAt = 20 + jsonChunk.length;
  out.writeUInt32LE(bin.length, binAt);
  out.writeUInt32LE(CHUNK_BIN, binAt + 4);
  bin.copy(out, binAt + 8);
  return out;
}

/** Reads a .glb back into its JSON and binary chunks, checking the layout (for tests and tools). */
// biome-ignore lint/suspicious/noExplicitAny: glTF JSON as parsed; the tests read what they check.
export function readGlb(glb: Buffer): { json: any; bin: Buffer } {
  if (glb.length < 20 || glb.readUInt32LE(0) !== GLB_MAGIC) throw new Error('not a glb');
  if (glb.readUInt32LE(4) !== 2) throw new Error('not glTF 2');
  if (glb.readUInt32LE(8) !== glb.length) throw new Error('length mismatch');
  const jsonLength = glb.readUInt32LE(12);
  if (glb.readUInt32LE(16) !== CHUNK_JSON || jsonLength % 4) throw new Error('bad JSON chunk');
  const json = JSON.parse(glb.subarray(20, 20 + jsonLength).toString('utf8'));
  const binAt = 20 + jsonLength;
  const binLength = glb.readUInt32LE(binAt);
  if (glb.readUInt32LE(binAt + 4) !== CHUNK_BIN || binLength % 4 || binAt + 8 + binLength !== glb.length) throw new Error('bad BIN chunk');
  return { json, bin: glb.subarray(binAt + 8, binAt + 8 + binLength) };
}
