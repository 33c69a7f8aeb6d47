# Generated from spec-ksy/metaroce-v1.yaml by io.metaroce.spec.SpecTool. Do not edit: change the spec.
meta:
  id: probeeth
  title: MR-PROBE Extended Transport Header
  license: CC0-1.0
  ks-version: '0.11'
  endian: be
  bit-endian: be
doc: MR-PROBE Extended Transport Header.
doc-ref: 'metaroce-v1.md §7 (v1 draft r2)'
seq:
  - id: probe_seq
    type: u4
    doc: Probe sequence number
  - id: echo_timestamp
    type: u4
    doc: Echoed tx_timestamp of the probe (0 in MR-PROBE)
