import { describe, expect, it } from 'vitest';
import { readGlb } from './glb.ts';
import { sofaGlb, sofaParts } from './sofa-model.ts';

describe('the generated sofa model (.glb)', () => {
  const glb = sofaGlb();
  const { json, bin } = readGlb(glb);

  it('is a binary glTF 2.0 file with a JSON and a BIN chunk, 4-byte aligned', () => {
    expect(glb.subarray(0, 4).toString('latin1')).toBe('glTF');
    expect(glb.length % 4).toBe(0);
    expect(json.asset.version).toBe('2.0');
    expect(json.buffers[0].byteLength).toBe(bin.length);
  });

  it('keeps every buffer view and accessor inside the binary chunk', () => {
    const sizes: Record<number, number> = { 5126: 4, 5123: 2 };
    const comps: Record<string, number> = { SCALAR: 1, VEC3: 3 };
    for (const a of json.accessors) {
      const view = json.bufferViews[a.bufferView];
      expect(view.byteOffset % 4).toBe(0);
      expect(view.byteOffset + view.byteLength).toBeLessThanOrEqual(bin.length);
      expect(a.count * comps[a.type]! * sizes[a.componentType]!).toBe(view.byteLength);
    }
  });

  it('has indices that point at existing vertices and positions within the declared bounds', () => {
    const [pos, , idx] = json.accessors;
    const positions = new Float32Array(
      bin.buffer.slice(bin.byteOffset + json.bufferViews[0].byteOffset, bin.byteOffset + json.bufferViews[0].byteOffset + json.bufferViews[0].byteLength),
    );
    const indices = new Uint16Array(
      bin.buffer.slice(bin.byteOffset + json.bufferViews[2].byteOffset, bin.byteOffset + json.bufferViews[2].byteOffset + json.bufferViews[2].byteLength),
    );
    expect(Math.max(...indices)).toBe(pos.count - 1);
    expect(indices.length).toBe(idx.count);
    for (let i = 0; i < positions.length; i++) {
      expect(positions[i]).toBeGreaterThanOrEqual(pos.min[i % 3]);
      expect(positions[i]).toBeLessThanOrEqual(pos.max[i % 3]);
    }
  });

  it('is a sofa: a base, a back, two arms, three seat and three back cushions and four legs', () => {
    const names = json.nodes.slice(1).map((n: { name: string }) => n.name);
    expect(names).toHaveLength(14);
    for (const n of ['base', 'back', 'arm-left', 'arm-right', 'seat-cushion-1', 'back-cushion-3', 'leg-lf']) expect(names).toContain(n);
    expect(json.scenes[0].nodes).toEqual([0]);
    expect(json.nodes[0].children).toHaveLength(14);
  });

  it('stands on the floor and is the size of a three-seater', () => {
    const parts = sofaParts();
    const min = [0, 1, 2].map((i) => Math.min(...parts.map((p) => p.center[i]! - p.size[i]! / 2)));
    const max = [0, 1, 2].map((i) => Math.max(...parts.map((p) => p.center[i]! + p.size[i]! / 2)));
    expect(min[1]).toBeCloseTo(0, 6);
    expect(max[0]! - min[0]!).toBeCloseTo(2.1, 6);
    expect(max[1]).toBeGreaterThan(0.8);
    expect(max[2]! - min[2]!).toBeCloseTo(0.9, 6);
  });

  it('is small and the same every time', () => {
    expect(glb.length).toBeLessThan(8_000);
    expect(Buffer.compare(glb, sofaGlb())).toBe(0);
  });
});
