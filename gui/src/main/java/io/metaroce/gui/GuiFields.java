package io.metaroce.gui;

import io.metaroce.analysis.AnalysisEvent;
import io.metaroce.analysis.AnalysisSession;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.ExpertItem;
import io.metaroce.dissector.FieldCatalog;
import io.metaroce.dissector.FrameFields;
import io.metaroce.filter.FieldAccessor;
import io.metaroce.filter.FieldResolver;
import io.metaroce.filter.FieldType;
import io.metaroce.filter.FilterField;
import java.util.BitSet;
import java.util.List;
import java.util.Map;

/**
 * The display-filter names of the GUI: every name of the field catalogue (and its Wireshark aliases), plus three
 * that coloring rules and the filter bar need and the per-frame fields cannot say:
 * <ul>
 *   <li>{@code event}: the analysis events of the frame by type ({@code event == "credit_stall"},
 *       {@code event == "path_down"}, {@code event == "cnp"}; types as in {@code analyze --events});</li>
 *   <li>{@code expert.id}, {@code expert.severity} ({@code "error"}, {@code "warn"}, {@code "note"}): the
 *       frame's expert items;</li>
 *   <li>{@code expert.rule}: the §11 conformance rule an expert item is evidence for ({@code expert.rule}
 *       alone: a conformance finding);</li>
 *   <li>{@code frame.marked}, {@code frame.ref_time}: Wireshark's names for the frames marked and set as time
 *       references in Edit ({@link Marks});</li>
 *   <li>{@code frame.ignored}: Wireshark's name for the frames Edit > Ignore Packet ignored (in every frame, as
 *       frame.marked; an ignored frame matches no other field, see {@code FrameFilter}).</li>
 * </ul>
 * The same filter language and compiler as {@code dissect -Y}; these names only add to it. Public so that every
 * window's filters (the IO graph's series, the packet list's) accept the same names: compile with {@link #INSTANCE}
 * and match through an {@link Accessor}.
 */
public final class GuiFields implements FieldResolver {
    public static final GuiFields INSTANCE = new GuiFields();
    /** Ids far below the catalogue's protocol ids (-1 - header index). */
    static final int EVENT = -100_001, EXPERT_ID = -100_002, EXPERT_SEVERITY = -100_003, EXPERT_RULE = -100_004,
            FRAME_MARKED = -100_005, FRAME_REF_TIME = -100_006, FRAME_IGNORED = -100_007;
    private static final Map<String, FilterField> EXTRA = Map.of(
            "event", new FilterField("event", FieldType.STRING, EVENT),
            "expert.id", new FilterField("expert.id", FieldType.STRING, EXPERT_ID),
            "expert.severity", new FilterField("expert.severity", FieldType.STRING, EXPERT_SEVERITY),
            "expert.rule", new FilterField("expert.rule", FieldType.STRING, EXPERT_RULE),
            "frame.marked", new FilterField("frame.marked", FieldType.BOOLEAN, FRAME_MARKED),
            "frame.ref_time", new FilterField("frame.ref_time", FieldType.BOOLEAN, FRAME_REF_TIME),
            "frame.ignored", new FilterField("frame.ignored", FieldType.BOOLEAN, FRAME_IGNORED));

    public static List<String> extraNames() {
        return List.of("event", "expert.id", "expert.severity", "expert.rule", "frame.marked", "frame.ref_time", "frame.ignored");
    }

    /**
     * Edit > Mark Packet and Set Time Reference, for Wireshark's {@code frame.marked} (in every frame, true when
     * marked: {@code frame.marked == 1}) and {@code frame.ref_time} (only in a time reference frame). Immutable: a
     * copy made on the JavaFX thread when they change, read by the filter threads. comments: the packet comments as
     * edited in Edit > Packet Comments, which {@code frame.comment} reads instead of the file's. ignored: the frames
     * Edit > Ignore Packet ignored ({@code frame.ignored}).
     */
    public record Marks(BitSet marked, BitSet timeRefs, PacketComments.State comments, BitSet ignored) {
        public static final Marks NONE = new Marks(new BitSet(), new BitSet());

        public Marks(BitSet marked, BitSet timeRefs) { this(marked, timeRefs, PacketComments.State.NONE); }

        public Marks(BitSet marked, BitSet timeRefs, PacketComments.State comments) { this(marked, timeRefs, comments, new BitSet()); }
    }

    /** The catalogue's frame.comment: the GUI reads it from the edited comments ({@link PacketComments}). */
    private static final int FRAME_COMMENT = FieldCatalog.get().resolve("frame.comment").id();

    @Override
    public FilterField resolve(String name) {
        FilterField f = EXTRA.get(name);
        return f != null ? f : FieldCatalog.get().resolve(name);
    }

    /** The values of one decoded frame: the catalogue's fields and the names above. */
    public static final class Accessor implements FieldAccessor {
        private final AnalysisSession session;
        private final Marks marks;
        private FrameFields fields;
        private Dissection d;
        private List<AnalysisEvent> events;
        /** The frames' index, for the file's comments beyond a frame's first (null: the first only). */
        private io.metaroce.dissector.FrameIndex index;

        /** @param session the finished analysis (for {@code event}), or null */
        public Accessor(AnalysisSession session) { this(session, Marks.NONE); }

        /** As {@link #Accessor(AnalysisSession)}, with the user's marks and time references. */
        public Accessor(AnalysisSession session, Marks marks) {
            this.session = session;
            this.marks = marks;
        }

        /** Reads frame.comment's file comments from index: all of a frame's, not only its first; returns itself. */
        public Accessor withIndex(io.metaroce.dissector.FrameIndex index) {
            this.index = index;
            return this;
        }

        /** Points the accessor at a decoded frame's fields; returns itself. */
        public Accessor of(FrameFields ff) {
            fields = ff;
            d = ff.dissection();
            events = null;
            return this;
        }

        private List<AnalysisEvent> events() {
            if (events == null) events = session == null ? List.of() : session.events().at(d.number());
            return events;
        }

        @Override
        public int count(FilterField f) {
            int id = f.id();
            if (id == EVENT) return events().size();
            if (id == FRAME_MARKED || id == FRAME_IGNORED) return 1;
            if (id == FRAME_REF_TIME) return marks.timeRefs().get((int) d.number()) ? 1 : 0;
            if (id == FRAME_COMMENT) return comments().size();
            if (id == EXPERT_ID || id == EXPERT_SEVERITY) return d.expert().size();
            if (id == EXPERT_RULE) {
                int n = 0;
                for (ExpertItem e : d.expert()) if (e.rule() != null) n++;
                return n;
            }
            return fields.count(f);
        }

        @Override
        public long asLong(FilterField f, int i) {
            if (f.id() == FRAME_MARKED) return marks.marked().get((int) d.number()) ? 1 : 0;
            if (f.id() == FRAME_IGNORED) return marks.ignored().get((int) d.number()) ? 1 : 0;
            if (f.id() == FRAME_REF_TIME) return 1;
            return fields.asLong(f, i);
        }

        @Override
        public byte[] asBytes(FilterField f, int i) { return fields.asBytes(f, i); }

        @Override
        public String asString(FilterField f, int i) {
            int id = f.id();
            if (id == EVENT) return events().get(i).type().label();
            if (id == EXPERT_ID) return d.expert().get(i).id();
            if (id == EXPERT_SEVERITY) return d.expert().get(i).severity().name().toLowerCase();
            if (id == EXPERT_RULE) {
                int n = 0;
                for (ExpertItem e : d.expert()) if (e.rule() != null && n++ == i) return e.rule();
            }
            if (id == FRAME_COMMENT) return comments().get(i);
            return fields.asString(f, i);
        }

        /** The frame's comments: as edited, else the file's (the decoded frame's). */
        private List<String> comments() {
            PacketComments.State c = marks.comments();
            List<String> edited = c.edited().isEmpty() ? null : c.edited().get((int) d.number());
            if (edited != null) return edited;
            if (c.fileDropped() || d.comment() == null) return List.of();
            return index != null ? index.comments((int) d.number()) : List.of(d.comment());
        }
    }
}
