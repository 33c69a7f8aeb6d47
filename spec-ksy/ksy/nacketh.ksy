# Generated from spec-ksy/metaroce-v1.yaml by io.metaroce.spec.SpecTool. Do not edit: change the spec.
meta:
  id: nacketh
  title: MR-NACK Extended Transport Header
  license: CC0-1.0
  ks-version: '0.11'
  endian: be
  bit-endian: be
doc: MR-NACK Extended Transport Header.
doc-ref: 'metaroce-v1.md §7 (v1 draft r2)'
seq:
  - id: resv8
    type: u1
    doc: Reserved (reserved, must be 0)
  - id: first_psn
    type: b24
    doc: First missing PSN
  - id: count
    type: u2
    doc: Number of missing PSNs
  - id: reason
    type: u1
    doc: Reason
  - id: rnr_timer
    type: u1
    doc: RNR timer code
instances:
  reason_enum:
    value: reason
    enum: nack_reason
  rnr_timer_enum:
    value: rnr_timer
    enum: rnr_timer
enums:
  nack_reason:
    0x00:
      id: loss
      doc: Loss (retransmit the range)
    0x01:
      id: invalid_request
      doc: Invalid request (QP error)
    0x10:
      id: icrc_error
      doc: ICRC error (retransmit)
    0x11:
      id: no_receive_resources
      doc: No receive resources (retransmit after the RNR timer)
  rnr_timer:
    0x00:
      id: t655_36ms
      doc: '655.36 ms'
    0x01:
      id: t0_01ms
      doc: '0.01 ms'
    0x02:
      id: t0_02ms
      doc: '0.02 ms'
    0x03:
      id: t0_03ms
      doc: '0.03 ms'
    0x04:
      id: t0_04ms
      doc: '0.04 ms'
    0x05:
      id: t0_06ms
      doc: '0.06 ms'
    0x06:
      id: t0_08ms
      doc: '0.08 ms'
    0x07:
      id: t0_12ms
      doc: '0.12 ms'
    0x08:
      id: t0_16ms
      doc: '0.16 ms'
    0x09:
      id: t0_24ms
      doc: '0.24 ms'
    0x0A:
      id: t0_32ms
      doc: '0.32 ms'
    0x0B:
      id: t0_48ms
      doc: '0.48 ms'
    0x0C:
      id: t0_64ms
      doc: '0.64 ms'
    0x0D:
      id: t0_96ms
      doc: '0.96 ms'
    0x0E:
      id: t1_28ms
      doc: '1.28 ms'
    0x0F:
      id: t1_92ms
      doc: '1.92 ms'
    0x10:
      id: t2_56ms
      doc: '2.56 ms'
    0x11:
      id: t3_84ms
      doc: '3.84 ms'
    0x12:
      id: t5_12ms
      doc: '5.12 ms'
    0x13:
      id: t7_68ms
      doc: '7.68 ms'
    0x14:
      id: t10_24ms
      doc: '10.24 ms'
    0x15:
      id: t15_36ms
      doc: '15.36 ms'
    0x16:
      id: t20_48ms
      doc: '20.48 ms'
    0x17:
      id: t30_72ms
      doc: '30.72 ms'
    0x18:
      id: t40_96ms
      doc: '40.96 ms'
    0x19:
      id: t61_44ms
      doc: '61.44 ms'
    0x1A:
      id: t81_92ms
      doc: '81.92 ms'
    0x1B:
      id: t122_88ms
      doc: '122.88 ms'
    0x1C:
      id: t163_84ms
      doc: '163.84 ms'
    0x1D:
      id: t245_76ms
      doc: '245.76 ms'
    0x1E:
      id: t327_68ms
      doc: '327.68 ms'
    0x1F:
      id: t491_52ms
      doc: '491.52 ms'
