# Generated from spec-ksy/metaroce-v1.yaml by io.metaroce.spec.SpecTool. Do not edit: change the spec.
meta:
  id: vlan
  title: '802.1Q / 802.1ad VLAN tag (after the TPID)'
  license: CC0-1.0
  ks-version: '0.11'
  endian: be
  bit-endian: be
doc: '802.1Q / 802.1ad VLAN tag (after the TPID).'
doc-ref: 'metaroce-v1.md §1 (v1 draft r2)'
seq:
  - id: pcp
    type: b3
    doc: Priority
  - id: dei
    type: b1
    doc: Drop eligible
  - id: id
    type: b12
    doc: VLAN ID
  - id: etype
    type: u2
    doc: Type
instances:
  etype_enum:
    value: etype
    enum: ether_type
enums:
  ether_type:
    0x800:
      id: ipv4
      doc: IPv4
    0x86DD:
      id: ipv6
      doc: IPv6
    0x8100:
      id: vlan
      doc: '802.1Q VLAN'
    0x88A8:
      id: qinq
      doc: '802.1ad QinQ'
    0x9100:
      id: qinq_old
      doc: '802.1QinQ (legacy 0x9100)'
    0x8915:
      id: roce_v1
      doc: RoCEv1
    0x8808:
      id: mac_control
      doc: MAC Control
