package io.metaroce.cli;

import static io.metaroce.dissector.FrameSummary.Style.LINE;

import io.metaroce.dissector.ByteOut;
import io.metaroce.dissector.Dissection;
import io.metaroce.dissector.FrameFields;
import io.metaroce.dissector.FrameSummary;

/**
 * Default text output: one tshark-like line per frame (number, relative time, addresses, protocol, length, info);
 * the text after the time is the dissector's {@link FrameSummary} in its line style, shared with the GUI's packet list.
 */
final class SummaryLines implements DissectCommand.FrameSink {
    private final ByteOut out;
    private long firstTime = Long.MIN_VALUE;

    SummaryLines(ByteOut out) { this.out = out; }

    @Override
    public void batch(io.metaroce.dissector.FrameBatch batch) { firstTime = batch.captureStartNanos(); }

    @Override
    public void frame(Dissection d, FrameFields ff) {
        if (firstTime == Long.MIN_VALUE) firstTime = d.timeNanos();
        long rel = d.timeNanos() - firstTime;
        String no = Long.toString(d.number());
        for (int i = no.length(); i < 6; i++) out.ch(' ');
        out.ascii(no).ch(' ').num(rel / 1_000_000_000L).ch('.');
        String frac = Long.toString(Math.abs(rel % 1_000_000_000L));
        for (int i = frac.length(); i < 9; i++) out.ch('0');
        out.ascii(frac).ch(' ').str(FrameSummary.source(d, LINE)).str(" \u2192 ").str(FrameSummary.destination(d, LINE)).ch(' ')
                .ascii(FrameSummary.protocol(d, LINE)).ch(' ').num(d.originalLength()).ch(' ').str(FrameSummary.info(d, LINE)).ch('\n');
    }
}
