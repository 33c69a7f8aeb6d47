package io.metaroce.capture;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * pcapng reader. The file is a sequence of blocks {type, total length, body, total length}; a Section Header
 * Block starts a section with its own byte order and its own interface numbering. Packet blocks are returned,
 * interface and statistics blocks update state, every other block type is skipped by its length.
 *
 * <p>Framing damage (bad or mismatching block lengths, truncation) ends reading, because nothing after it can
 * be located reliably. A block whose framing is intact but whose content is inconsistent (a packet that does
 * not fit its block, an unknown interface) is skipped with a problem, and reading continues.
 */
final class PcapngReader extends MappedCapture {
    static final int SHB = 0x0A0D0D0A;
    static final int IDB = 0x00000001;
    static final int PB = 0x00000002; // obsolete Packet Block
    static final int SPB = 0x00000003;
    static final int ISB = 0x00000005;
    static final int EPB = 0x00000006;
    static final int BYTE_ORDER_MAGIC = 0x1A2B3C4D;

    static final int OPT_END = 0;
    static final int OPT_COMMENT = 1;
    static final int SHB_USERAPPL = 4;
    static final int IF_NAME = 2;
    static final int IF_DESCRIPTION = 3;
    static final int IF_TSRESOL = 9;
    static final int IF_FCSLEN = 13;
    static final int IF_TSOFFSET = 14;
    static final int EPB_FLAGS = 2;
    static final int ISB_IFRECV = 4;
    static final int ISB_IFDROP = 5;
    static final int ISB_OSDROP = 7;

    /** Interfaces per section; the format allows 2^32 but each costs memory, and real files have a handful. */
    static final int MAX_INTERFACES_PER_SECTION = 65_536;

    private static final int SHB_MIN_LENGTH = 28;
    private static final int IDB_MIN_LENGTH = 20;
    private static final int EPB_MIN_LENGTH = 32;
    private static final int PB_MIN_LENGTH = 32;
    private static final int SPB_MIN_LENGTH = 16;
    private static final int ISB_MIN_LENGTH = 24;

    private static final ValueLayout.OfInt BE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    // Layouts of the current section's byte order.
    private ValueLayout.OfInt i32;
    private ValueLayout.OfShort i16;
    private ValueLayout.OfLong i64;

    private final List<InterfaceState> sectionInterfaces = new ArrayList<>();
    private long cursor;

    // Filled by parseOptions() for the packet block being read; plain fields so next() allocates nothing.
    private long packetCommentOffset;
    private int packetCommentLength;
    private int packetFcsLength;

    /**
     * @throws CaptureException if the first block has no valid byte-order magic, i.e. this is not pcapng at all
     */
    PcapngReader(String fileName, Arena arena, MemorySegment file) throws CaptureException {
        super(arena, file, CaptureFormat.PCAPNG);
        if (fileSize < 12) {
            problem(0, "truncated section header block at byte 0: " + SHB_MIN_LENGTH + " bytes needed, "
                    + fileSize + " present");
            finished = true;
            return;
        }
        int magic = file.get(BE_INT, 8);
        if (magic != BYTE_ORDER_MAGIC && magic != Integer.reverseBytes(BYTE_ORDER_MAGIC)) {
            throw new CaptureException(fileName + ": not a pcapng file (starts like a section header block but "
                    + "the byte-order magic is " + hex(magic) + ", expected 1a 2b 3c 4d in either byte order)");
        }
        if (!readSectionHeader(0)) {
            finished = true;
        }
    }

    private static String hex(int value) {
        return HexFormat.ofDelimiter(" ").formatHex(new byte[] {
                (byte) (value >>> 24), (byte) (value >>> 16), (byte) (value >>> 8), (byte) value});
    }

    // Per-block reads go through constant little-endian layouts and a byte swap for big-endian sections: a segment
    // read through a layout held in a field (the section's order) is not folded by the JIT and stays a slow
    // VarHandle call on every block.
    private static final ValueLayout.OfInt LE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfShort LE_SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private boolean bigEndian;

    private int s32(long offset) {
        int v = file.get(LE_INT, offset);
        return bigEndian ? Integer.reverseBytes(v) : v;
    }

    private long u32(long offset) {
        return Integer.toUnsignedLong(s32(offset));
    }

    private int u16(long offset) {
        short v = file.get(LE_SHORT, offset);
        return Short.toUnsignedInt(bigEndian ? Short.reverseBytes(v) : v);
    }

    private static long align4(long n) {
        return (n + 3) & ~3L;
    }

    @Override
    boolean advance() {
        while (true) {
            long pos = cursor;
            long left = fileSize - pos;
            if (left == 0) {
                return false;
            }
            if (left < 12) {
                problem(pos, "truncated block header at byte " + pos + ": 12 bytes needed, " + left + " left");
                return false;
            }
            int type = s32(pos);
            if (type == SHB) {
                // Its byte order can differ from the previous section, so it validates its own length.
                if (!readSectionHeader(pos)) {
                    return false;
                }
                continue;
            }
            long length = u32(pos + 4);
            if (!checkFraming(pos, type, length, left, 12)) {
                return false;
            }
            // From here the block is known to fit the file, so the cursor always moves forward by >= 12 bytes.
            cursor = pos + length;
            switch (type) {
                case EPB -> {
                    if (readEnhancedPacket(pos, length)) {
                        return true;
                    }
                }
                case PB -> {
                    if (readObsoletePacket(pos, length)) {
                        return true;
                    }
                }
                case SPB -> {
                    if (readSimplePacket(pos, length)) {
                        return true;
                    }
                }
                case IDB -> {
                    if (!readInterfaceDescription(pos, length)) {
                        return false;
                    }
                }
                case ISB -> readInterfaceStatistics(pos, length);
                default -> {
                    // NRB, DSB, systemd journal, custom blocks, future types: nothing to do, the length skips them.
                }
            }
        }
    }

    /** Checks a block's total length fields; records a problem and returns false when reading must stop. */
    private boolean checkFraming(long pos, int type, long length, long left, int minLength) {
        if (length < minLength || (length & 3) != 0) {
            problem(pos, "bad block length " + length + " at byte " + pos + " (block type 0x"
                    + Integer.toHexString(type) + "): must be a multiple of 4 and at least " + minLength);
            return false;
        }
        if (length > left) {
            problem(pos, "truncated block at byte " + pos + ": header says " + length + " bytes, " + left
                    + " left (block type 0x" + Integer.toHexString(type) + ")");
            return false;
        }
        long trailer = u32(pos + length - 4);
        if (trailer != length) {
            problem(pos, "block total length mismatch at byte " + pos + ": leading length " + length
                    + ", trailing length " + trailer + " (block type 0x" + Integer.toHexString(type) + ")");
            return false;
        }
        return true;
    }

    private boolean readSectionHeader(long pos) {
        int magic = file.get(BE_INT, pos + 8);
        ByteOrder order;
        if (magic == BYTE_ORDER_MAGIC) {
            order = ByteOrder.BIG_ENDIAN;
        } else if (magic == Integer.reverseBytes(BYTE_ORDER_MAGIC)) {
            order = ByteOrder.LITTLE_ENDIAN;
        } else {
            problem(pos, "bad byte-order magic " + hex(magic) + " in section header block at byte " + pos);
            return false;
        }
        bigEndian = order == ByteOrder.BIG_ENDIAN;
        i32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(order);
        i16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(order);
        i64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(order);
        long length = u32(pos + 4);
        if (!checkFraming(pos, SHB, length, fileSize - pos, SHB_MIN_LENGTH)) {
            return false;
        }
        int major = u16(pos + 12);
        int minor = u16(pos + 14);
        if (major != 1) {
            problem(pos, "unsupported pcapng version " + major + "." + minor + " in section header block at byte "
                    + pos);
            return false;
        }
        cursor = pos + length;
        sectionCount++;
        sectionInterfaces.clear();
        parseOptions(SHB, pos, pos + 24, pos + length - 4, null);
        return true;
    }

    private boolean readInterfaceDescription(long pos, long length) {
        if (length < IDB_MIN_LENGTH) {
            // Interface numbering counts these blocks, so skipping one would misattribute every later packet.
            problem(pos, "interface description block at byte " + pos + " is too short (" + length + " bytes)");
            return false;
        }
        if (sectionInterfaces.size() >= MAX_INTERFACES_PER_SECTION) {
            problem(pos, "more than " + MAX_INTERFACES_PER_SECTION + " interfaces in section " + (sectionCount - 1)
                    + " at byte " + pos + "; giving up");
            return false;
        }
        InterfaceState iface = new InterfaceState(sectionCount - 1, sectionInterfaces.size(), u16(pos + 8),
                u32(pos + 12));
        parseOptions(IDB, pos, pos + 16, pos + length - 4, iface);
        sectionInterfaces.add(iface);
        registerInterface(iface);
        return true;
    }

    private InterfaceState interfaceFor(long pos, long interfaceId, String blockName) {
        if (interfaceId < sectionInterfaces.size()) {
            return sectionInterfaces.get((int) interfaceId);
        }
        problem(pos, blockName + " at byte " + pos + " refers to interface " + interfaceId + " but section "
                + (sectionCount - 1) + " has " + sectionInterfaces.size() + " interface(s); block skipped");
        return null;
    }

    private boolean readEnhancedPacket(long pos, long length) {
        if (length < EPB_MIN_LENGTH) {
            problem(pos, "enhanced packet block at byte " + pos + " is too short (" + length + " bytes); skipped");
            return false;
        }
        return readPacket(pos, length, "enhanced packet block", u32(pos + 8));
    }

    private boolean readObsoletePacket(long pos, long length) {
        if (length < PB_MIN_LENGTH) {
            problem(pos, "packet block at byte " + pos + " is too short (" + length + " bytes); skipped");
            return false;
        }
        // Same layout as an EPB except that the interface id is 16 bits, followed by a 16-bit drop count.
        return readPacket(pos, length, "packet block", u16(pos + 8));
    }

    /** EPB and obsolete PB: interface, 64-bit timestamp, captured and original length, data, options. */
    private boolean readPacket(long pos, long length, String blockName, long interfaceId) {
        long captured = u32(pos + 20);
        long original = u32(pos + 24);
        long room = length - 32;
        if (captured > room || captured > MAX_CAPTURED_LENGTH) {
            problem(pos, blockName + " at byte " + pos + ": captured length " + captured + " does not fit the "
                    + room + " bytes the block holds; block skipped");
            return false;
        }
        InterfaceState iface = interfaceFor(pos, interfaceId, blockName);
        if (iface == null) {
            return false;
        }
        long ticks = (u32(pos + 12) << 32) | u32(pos + 16);
        packetCommentOffset = -1;
        packetCommentLength = 0;
        packetFcsLength = iface.fcsLength;
        parseOptions(EPB, pos, pos + 28 + align4(captured), pos + length - 4, iface);
        setFrame(pos, iface.toNanos(ticks), pos + 28, (int) captured, original, iface, packetFcsLength,
                packetCommentOffset, packetCommentLength);
        return true;
    }

    private boolean readSimplePacket(long pos, long length) {
        if (length < SPB_MIN_LENGTH) {
            problem(pos, "simple packet block at byte " + pos + " is too short (" + length + " bytes); skipped");
            return false;
        }
        // An SPB always belongs to interface 0 and carries no timestamp and no captured length.
        InterfaceState iface = interfaceFor(pos, 0, "simple packet block");
        if (iface == null) {
            return false;
        }
        long original = u32(pos + 8);
        long captured = Math.min(original, length - 16);
        if (iface.snapLength > 0) {
            captured = Math.min(captured, iface.snapLength);
        }
        if (captured > MAX_CAPTURED_LENGTH) {
            problem(pos, "simple packet block at byte " + pos + ": length " + captured + " exceeds the "
                    + (MAX_CAPTURED_LENGTH >> 20) + " MiB sanity limit; block skipped");
            return false;
        }
        setFrame(pos, 0, pos + 12, (int) captured, original, iface, iface.fcsLength, -1, 0);
        return true;
    }

    private void readInterfaceStatistics(long pos, long length) {
        if (length < ISB_MIN_LENGTH) {
            problem(pos, "interface statistics block at byte " + pos + " is too short (" + length
                    + " bytes); skipped");
            return;
        }
        InterfaceState iface = interfaceFor(pos, u32(pos + 8), "interface statistics block");
        if (iface != null) {
            parseOptions(ISB, pos, pos + 20, pos + length - 4, iface);
        }
    }

    /**
     * Walks the options in [start, end) of a block of the given type and applies those we use. Each option is
     * {code u16, length u16, value padded to 4}. An option overrunning the block ends the walk with a problem;
     * the block itself stays usable because its mandatory fields were already validated.
     */
    private void parseOptions(int blockType, long blockPos, long start, long end, InterfaceState iface) {
        long opt = start;
        while (opt + 4 <= end) {
            int code = u16(opt);
            int length = u16(opt + 2);
            if (code == OPT_END) {
                return;
            }
            long value = opt + 4;
            if (value + length > end) {
                problem(opt, "option " + code + " at byte " + opt + " overruns its block (block at byte " + blockPos
                        + "); remaining options ignored");
                return;
            }
            switch (blockType) {
                case SHB -> sectionOption(code, value, length);
                case IDB -> interfaceOption(iface, code, value, length);
                case EPB -> packetOption(code, value, length);
                case ISB -> statisticsOption(iface, code, value, length);
                default -> {
                }
            }
            opt = value + align4(length);
        }
    }

    private void sectionOption(int code, long value, int length) {
        if (code == OPT_COMMENT) {
            addFileComment(readString(value, length));
        } else if (code == SHB_USERAPPL && captureApplication == null && sectionCount == 1) {
            captureApplication = readString(value, length);
        }
    }

    private void interfaceOption(InterfaceState iface, int code, long value, int length) {
        switch (code) {
            case IF_NAME -> iface.name = readString(value, length);
            case IF_DESCRIPTION -> iface.description = readString(value, length);
            case IF_TSRESOL -> {
                if (length >= 1) {
                    iface.setTimestampFormat(file.get(ValueLayout.JAVA_BYTE, value), iface.tsOffsetSeconds());
                }
            }
            case IF_TSOFFSET -> {
                if (length >= 8) {
                    iface.setTimestampFormat(iface.tsResolution(), file.get(i64, value));
                }
            }
            case IF_FCSLEN -> {
                if (length >= 1) {
                    iface.fcsLength = fcsBytes(Byte.toUnsignedInt(file.get(ValueLayout.JAVA_BYTE, value)));
                }
            }
            default -> {
            }
        }
    }

    /**
     * if_fcslen is specified "in bits" by the pcapng draft, but Wireshark writes and reads it as bytes. Values
     * that are whole bytes of a real FCS size (16, 32 bits) are taken as bits; small values (0..8) as bytes.
     */
    static int fcsBytes(int value) {
        return value >= 16 && (value & 7) == 0 ? value / 8 : value;
    }

    /**
     * Every opt_comment of the current EPB or PB: its options walked again (next() keeps the first comment only, so
     * that a packet costs nothing more for the others: this is for the rare commented packet).
     */
    @Override
    public List<String> comments() {
        String first = comment();
        if (first == null) {
            return List.of();
        }
        long pos = recordOffset();
        long end = pos + u32(pos + 4) - 4;
        long opt = pos + 28 + align4(u32(pos + 20));
        List<String> all = new ArrayList<>(2);
        while (opt + 4 <= end) {
            int code = u16(opt);
            int length = u16(opt + 2);
            if (code == OPT_END || opt + 4 + length > end) {
                break;
            }
            if (code == OPT_COMMENT) {
                all.add(readString(opt + 4, length));
            }
            opt += 4 + align4(length);
        }
        return all.isEmpty() ? List.of(first) : all;
    }

    private void packetOption(int code, long value, int length) {
        if (code == OPT_COMMENT && packetCommentOffset < 0) {
            packetCommentOffset = value;
            packetCommentLength = length;
        } else if (code == EPB_FLAGS && length >= 4) {
            // Flags bits 5..8: FCS length in bytes for this packet; 0 means "not given here".
            int fcs = (file.get(i32, value) >>> 5) & 0xF;
            if (fcs != 0) {
                packetFcsLength = fcs;
            }
        }
    }

    private void statisticsOption(InterfaceState iface, int code, long value, int length) {
        if (length < 8) {
            return;
        }
        switch (code) {
            case ISB_IFRECV -> iface.ifReceived = file.get(i64, value);
            case ISB_IFDROP -> iface.ifDropped = file.get(i64, value);
            case ISB_OSDROP -> iface.osDropped = file.get(i64, value);
            default -> {
            }
        }
    }
}
