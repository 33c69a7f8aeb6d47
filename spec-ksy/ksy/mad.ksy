# Generated from spec-ksy/metaroce-v1.yaml by io.metaroce.spec.SpecTool. Do not edit: change the spec.
meta:
  id: mad
  title: Management Datagram common header
  license: CC0-1.0
  ks-version: '0.11'
  endian: be
  bit-endian: be
doc: 'IBTA Vol 1 13.4.2; CM MADs travel as UD SEND Only to QP 1 (Q_Key 0x80010000).'
doc-ref: 'metaroce-v1.md §4.1 (v1 draft r2)'
seq:
  - id: base_version
    type: u1
    doc: Base version
  - id: mgmt_class
    type: u1
    doc: 'Management class (0x07 = CM)'
  - id: class_version
    type: u1
    doc: Class version
  - id: method
    type: u1
    doc: Method
  - id: status
    type: u2
    doc: Status
  - id: class_specific
    type: u2
    doc: Class specific
  - id: transaction_id
    type: u8
    doc: Transaction ID
  - id: attribute_id
    type: u2
    doc: Attribute ID
  - id: resv16
    type: u2
    doc: Reserved (reserved, must be 0)
  - id: attribute_modifier
    type: u4
    doc: Attribute modifier
instances:
  attribute_id_enum:
    value: attribute_id
    enum: cm_attribute
enums:
  cm_attribute:
    0x10:
      id: req
      doc: ConnectRequest
    0x11:
      id: mra
      doc: MessageReceiptAcknowledgement
    0x12:
      id: rej
      doc: ConnectReject
    0x13:
      id: rep
      doc: ConnectReply
    0x14:
      id: rtu
      doc: ReadyToUse
    0x15:
      id: dreq
      doc: DisconnectRequest
    0x16:
      id: drep
      doc: DisconnectReply
