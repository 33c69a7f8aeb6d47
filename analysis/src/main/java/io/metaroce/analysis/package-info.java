/**
 * The analysis of RoCEv2 and MetaRoCE v1 captures (spec §12, issue 4): QP flows and their pairing,
 * retransmissions and their causes, spurious and out-of-order packets, ECN/CNP accounting, MetaRoCE path health
 * and capture integrity, in one streaming pass.
 *
 * <ul>
 *   <li>{@link io.metaroce.analysis.AnalysisEngine}: the engine. Feed frames in capture order
 *       ({@code accept(Dissection)} or {@code accept(FrameFacts)}), then {@code finish(ifDrops, osDrops)}.
 *       Events reach an {@link io.metaroce.analysis.AnalysisEngine.EventListener} in frame order.</li>
 *   <li>{@link io.metaroce.analysis.Analyzer}: the engine over a capture file (tap auto-detection, decode and
 *       analysis on two threads for large files).</li>
 *   <li>{@link io.metaroce.analysis.AnalysisResult}: the capture summary and per-flow results as ordered maps
 *       (the JSON shape of {@code metaroce analyze -T json}).</li>
 *   <li>{@link io.metaroce.analysis.AnalysisFrameFields}: attaches the {@code analysis.*} fields to frames
 *       dissected again after the pass, from the {@link io.metaroce.analysis.VerdictStore}.</li>
 *   <li>{@link io.metaroce.analysis.AnalyzeOutput} and {@link io.metaroce.analysis.Reports}: the JSON, text and
 *       event-stream outputs of {@code metaroce analyze}.</li>
 *   <li>{@link io.metaroce.analysis.AnalysisSettings}: the settings of spec §13.</li>
 * </ul>
 */
package io.metaroce.analysis;
