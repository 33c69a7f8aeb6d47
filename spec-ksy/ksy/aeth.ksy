# Generated from spec-ksy/metaroce-v1.yaml by io.metaroce.spec.SpecTool. Do not edit: change the spec.
meta:
  id: aeth
  title: ACK Extended Transport Header
  license: CC0-1.0
  ks-version: '0.11'
  endian: be
  bit-endian: be
doc: ACK Extended Transport Header.
doc-ref: 'metaroce-v1.md §6 (v1 draft r2)'
seq:
  - id: syndrome
    type: u1
    doc: Syndrome
  - id: msn
    type: b24
    doc: Message sequence number
instances:
  syndrome_kind:
    value: '(syndrome & 0x60) >> 5'
    doc: Kind
  syndrome_kind_enum:
    value: syndrome_kind
    enum: aeth_kind
  syndrome_code:
    value: '(syndrome & 0x1F) >> 0'
    doc: Credit count / RNR timer / NAK code
enums:
  aeth_kind:
    0x00:
      id: ack
      doc: ACK
    0x01:
      id: rnr_nak
      doc: RNR NAK
    0x02:
      id: reserved
      doc: Reserved
    0x03:
      id: nak
      doc: NAK
