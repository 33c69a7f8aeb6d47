package io.metaroce.samples;

import io.metaroce.dissector.ExpertItem;

/** Manual inspection: prints frames with expert items and truth labels of one scenario. */
final class DebugDump {
    public static void main(String[] args) {
        for (String s : args.length > 0 ? java.util.List.of(args) : Simulator.scenarios()) {
            Generated g = Generated.of(s);
            System.out.println("== " + s + " frames=" + g.result.frames());
            g.forEachFrame(f -> {
                if (!f.d().expert().isEmpty() || f.truth().has("labels")) {
                    StringBuilder b = new StringBuilder();
                    for (ExpertItem e : f.d().expert()) b.append(" [").append(e.severity()).append(' ').append(e.message()).append(']');
                    System.out.println(f.number() + " op=0x" + Integer.toHexString(f.d().opcodeValue()) + " psn=" + f.d().psn()
                            + " icrc=" + f.d().icrcStatus() + " " + f.truth().path("labels") + b);
                }
            });
            System.out.println(g.truth.get("flows"));
        }
    }
}
