/**
 * Answers to the questions RDMA operators ask of a capture (issue 15): why a QP died and since when
 * ({@link io.metaroce.analysis.diagnosis.QpFailures}), which QPs hang at a given time
 * ({@link io.metaroce.analysis.diagnosis.HangSnapshot}), whether every packet is on the lossless class
 * ({@link io.metaroce.analysis.diagnosis.QosAudit}), whether QPs are spread over paths
 * ({@link io.metaroce.analysis.diagnosis.EntropyAudit}), whether both ends agree on the path MTU
 * ({@link io.metaroce.analysis.diagnosis.MtuCheck}), whether two NICs can talk RoCEv2 at all
 * ({@link io.metaroce.analysis.diagnosis.AddressCheck}) and whether the time went to the wire or to an idle host
 * ({@link io.metaroce.analysis.diagnosis.TimeSplit}).
 *
 * <p>{@link io.metaroce.analysis.diagnosis.Diagnoser} watches the frames of an analysis pass
 * ({@link io.metaroce.analysis.AnalysisSession#onFrame}) and keeps a fixed amount of state per QP direction;
 * {@link io.metaroce.analysis.diagnosis.Diagnoser#finish()} gives the {@link io.metaroce.analysis.diagnosis.Diagnosis}.
 */
package io.metaroce.analysis.diagnosis;
