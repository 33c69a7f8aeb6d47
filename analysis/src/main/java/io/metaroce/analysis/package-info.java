/**
 * The analysis of RoCEv2 and MetaRoCE v1 captures (spec §12, issue 4): QP flows and their pairing,
 * retransmissions and their causes, spurious and out-of-order packets, ECN/CNP accounting, MetaRoCE path health
 * and capture integrity, in one streaming pass.
 *
 * <p>Front ends (CLI, GUI, flow index, live view) use the typed API:
 * <ul>
 *   <li>{@link io.metaroce.analysis.AnalysisSession}: one pass over a file or any
 *       {@link io.metaroce.capture.PacketSource} (live), with progress and cancellation; what to keep beyond the
 *       flow results is chosen by its {@code Options}; thread-safe reads once finished.</li>
 *   <li>{@link io.metaroce.analysis.FlowSummary}: the result of one QP flow (counters, latency summaries,
 *       MetaRoCE paths); its {@code toJsonMap()} is the JSON of {@code metaroce analyze -T json}.</li>
 *   <li>{@link io.metaroce.analysis.FrameVerdict}: what was decided about one frame
 *       ({@code AnalysisSession.verdictOf(frame)}).</li>
 *   <li>{@link io.metaroce.analysis.AnalysisEvent}: a sealed hierarchy of typed event records, streamed to a
 *       listener in frame order and kept in an {@link io.metaroce.analysis.EventLog} indexed by frame.</li>
 *   <li>{@link io.metaroce.analysis.FrameList}: a flow's frame numbers and capture file offsets.</li>
 *   <li>{@link io.metaroce.analysis.AnalysisFrameFields}: attaches the {@code analysis.*} fields to frames
 *       dissected again after the pass.</li>
 *   <li>{@link io.metaroce.analysis.AnalyzeOutput} and {@link io.metaroce.analysis.Reports}: the JSON, text and
 *       event-stream outputs of {@code metaroce analyze}.</li>
 *   <li>{@link io.metaroce.analysis.AnalysisSettings}: the settings of spec §13.</li>
 * </ul>
 *
 * <p>{@link io.metaroce.analysis.AnalysisEngine} is the engine underneath: feed frames in capture order
 * ({@code accept(Dissection)} or {@code accept(FrameFacts)}), then {@code finish(ifDrops, osDrops)}.
 */
package io.metaroce.analysis;
