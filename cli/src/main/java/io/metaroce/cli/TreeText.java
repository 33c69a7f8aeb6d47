package io.metaroce.cli;

import io.metaroce.dissector.ByteOut;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.FrameFields;
import java.util.Set;

/**
 * -V and -O: the dissector's {@link io.metaroce.dissector.TreeText} as a sink of the output pipeline (the text is
 * built there, shared with the GUI's File > Export Packet Dissections).
 */
final class TreeText implements DissectCommand.FrameSink {
    private final io.metaroce.dissector.TreeText text;

    TreeText(ByteOut out, Set<String> only, io.metaroce.dissector.NameResolver names) {
        this.text = new io.metaroce.dissector.TreeText(out, only).names(names);
    }

    /** The names -O takes: every header id, and tshark's frame, infiniband and our analysis. */
    static Set<String> protocols() { return io.metaroce.dissector.TreeText.protocols(); }

    @Override
    public void frame(Dissection d, FrameFields ff) { text.frame(d, ff); }
}
