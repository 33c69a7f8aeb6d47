# Generated from spec-ksy/metaroce-v1.yaml by io.metaroce.spec.SpecTool. Do not edit: change the spec.
meta:
  id: sacketh
  title: MR-SACK Extended Transport Header
  license: CC0-1.0
  ks-version: '0.11'
  endian: be
  bit-endian: be
doc: MR-SACK Extended Transport Header.
doc-ref: 'metaroce-v1.md §7 (v1 draft r2)'
seq:
  - id: resv8a
    type: u1
    doc: Reserved (reserved, must be 0)
  - id: cum_psn
    type: b24
    doc: 'Cumulative PSN (next expected): every PSN before it was received; cum_psn itself was not'
  - id: resv8b
    type: u1
    doc: Reserved (reserved, must be 0)
  - id: base_psn
    type: b24
    doc: PSN of bitmap bit 0
  - id: bitmap
    type: u8
    doc: 'Received bitmap: PSN base_psn+i was received iff (bitmap >> i) & 1'
  - id: echo_timestamp
    type: u4
    doc: Echoed tx_timestamp of the trigger
  - id: ce_count
    type: u2
    doc: 'Cumulative CE-marked data packets (mod 2^16)'
  - id: echo_path_id
    type: u2
    doc: Path of the trigger
