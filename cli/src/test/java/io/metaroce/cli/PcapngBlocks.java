package io.metaroce.cli;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict little-endian pcapng walker for the live-capture tests, written from the pcapng spec and
 * independent of the production reader, so that what {@code metaroce capture} writes is checked block by
 * block: SHB and IDB options as text, EPB data, ISB options as numbers (times as 64-bit ticks).
 */
record PcapngBlocks(Map<Integer, String> shb, List<Map<Integer, Object>> idbs, List<int[]> idbHeader, List<byte[]> packets,
                    List<Integer> packetInterfaces, List<Map<Integer, Object>> isbs, List<Integer> isbInterfaces) {

    static PcapngBlocks parse(byte[] file) {
        ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        Map<Integer, String> shb = new LinkedHashMap<>();
        List<Map<Integer, Object>> idbs = new ArrayList<>(), isbs = new ArrayList<>();
        List<int[]> idbHeader = new ArrayList<>();
        List<byte[]> packets = new ArrayList<>();
        List<Integer> pif = new ArrayList<>(), iif = new ArrayList<>();
        int o = 0;
        while (o < file.length) {
            if (file.length - o < 12) throw new IllegalStateException("trailing " + (file.length - o) + " bytes at " + o);
            int type = b.getInt(o), len = b.getInt(o + 4);
            if (len < 12 || len % 4 != 0 || o + len > file.length || b.getInt(o + len - 4) != len) {
                throw new IllegalStateException("bad block at " + o + " (type " + type + ", length " + len + ")");
            }
            switch (type) {
                case 0x0A0D0D0A -> options(b, o + 24, o + len - 4, false).forEach((k, v) -> shb.put(k, (String) v));
                case 1 -> {
                    idbHeader.add(new int[] {b.getShort(o + 8) & 0xFFFF, b.getInt(o + 12)});
                    idbs.add(options(b, o + 16, o + len - 4, false));
                }
                case 6 -> {
                    pif.add(b.getInt(o + 8));
                    int cap = b.getInt(o + 20);
                    byte[] data = new byte[cap];
                    b.get(o + 28, data);
                    packets.add(data);
                }
                case 5 -> {
                    iif.add(b.getInt(o + 8));
                    isbs.add(options(b, o + 20, o + len - 4, true));
                }
                default -> { }
            }
            o += len;
        }
        return new PcapngBlocks(shb, idbs, idbHeader, packets, pif, isbs, iif);
    }

    /** Options: strings (and if_tsresol as a number) or, in ISBs, 64-bit numbers; comments stay text. */
    private static Map<Integer, Object> options(ByteBuffer b, int p, int end, boolean numbers) {
        Map<Integer, Object> m = new LinkedHashMap<>();
        while (p + 4 <= end) {
            int code = b.getShort(p) & 0xFFFF, len = b.getShort(p + 2) & 0xFFFF;
            if (code == 0) break;
            byte[] v = new byte[len];
            b.get(p + 4, v);
            if (numbers && code != 1 && len == 8) {
                long x = code == 2 || code == 3 ? ((long) b.getInt(p + 4) << 32) | (b.getInt(p + 8) & 0xFFFFFFFFL) : b.getLong(p + 4);
                m.put(code, x);
            } else if (len == 1) {
                m.put(code, (long) (v[0] & 0xFF));
            } else {
                m.put(code, new String(v, StandardCharsets.UTF_8));
            }
            p += 4 + ((len + 3) & ~3);
        }
        return m;
    }

    long isb(int index, int code) {
        Object v = isbs.get(index).get(code);
        return v == null ? -1 : (Long) v;
    }
}
