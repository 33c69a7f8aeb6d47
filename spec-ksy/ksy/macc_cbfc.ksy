# Generated from spec-ksy/metaroce-v1.yaml by io.metaroce.spec.SpecTool. Do not edit: change the spec.
meta:
  id: macc_cbfc
  title: PFC class enable vector (802.1Qbb)
  license: CC0-1.0
  ks-version: '0.11'
  endian: be
  bit-endian: be
doc: 'Bit n set: the pause time of class (priority) n below applies; the top 8 bits must be 0.'
doc-ref: 'metaroce-v1.md §1 (v1 draft r2)'
seq:
  - id: enbv
    type: u2
    doc: CBFC Class Enable Vector
instances:
  enbv_c0:
    value: '(enbv & 0x1) >> 0'
    doc: C0
  enbv_c1:
    value: '(enbv & 0x2) >> 1'
    doc: C1
  enbv_c2:
    value: '(enbv & 0x4) >> 2'
    doc: C2
  enbv_c3:
    value: '(enbv & 0x8) >> 3'
    doc: C3
  enbv_c4:
    value: '(enbv & 0x10) >> 4'
    doc: C4
  enbv_c5:
    value: '(enbv & 0x20) >> 5'
    doc: C5
  enbv_c6:
    value: '(enbv & 0x40) >> 6'
    doc: C6
  enbv_c7:
    value: '(enbv & 0x80) >> 7'
    doc: C7
