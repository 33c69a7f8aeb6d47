package io.metaroce.analysis;

/**
 * An event in the engine's output queue: its record, which the engine may still replace (a retransmission
 * found spurious later), and whether it is decided yet or was withdrawn (a CE mark answered in time).
 */
final class PendingEvent {
    AnalysisEvent event;
    boolean ready = true, cancelled;

    PendingEvent(AnalysisEvent event) { this.event = event; }
}
