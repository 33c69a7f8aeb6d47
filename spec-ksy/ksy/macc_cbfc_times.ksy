# Generated from spec-ksy/metaroce-v1.yaml by io.metaroce.spec.SpecTool. Do not edit: change the spec.
meta:
  id: macc_cbfc_times
  title: PFC class pause times
  license: CC0-1.0
  ks-version: '0.11'
  endian: be
  bit-endian: be
doc: |
  Pause time of each class in quanta of 512 bit times (0 = XON), meaningful where its enable bit is
  set.
doc-ref: 'metaroce-v1.md §1 (v1 draft r2)'
seq:
  - id: c0
    type: u2
    doc: C0
  - id: c1
    type: u2
    doc: C1
  - id: c2
    type: u2
    doc: C2
  - id: c3
    type: u2
    doc: C3
  - id: c4
    type: u2
    doc: C4
  - id: c5
    type: u2
    doc: C5
  - id: c6
    type: u2
    doc: C6
  - id: c7
    type: u2
    doc: C7
