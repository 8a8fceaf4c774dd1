/**
 * One unmasked, final text frame (RFC 6455, section 5.2) holding `payload`: a whole message as a server sends it.
 *
 * The fan-out writes the same change to thousands of sockets. Built once, the complete frame goes to each
 * socket as one write, where `ws` would build a header and cork two writes per socket
 * (docs/decisions/040-fan-out-writes-whole-frames.md). It holds the budget line "One create to 10,000
 * dashboard tabs (one client process), SQLite" of docs/benchmarks.md: the fan-out's CPU per socket is what
 * that line's p99 is made of.
 */
export function textFrame(payload: Buffer): Buffer {
  const { length } = payload;
  const headerLength = length < 126 ? 2 : length < 0x10000 ? 4 : 10;
  const frame = Buffer.allocUnsafe(headerLength + length);
  frame[0] = 0x81; // FIN, opcode 1 (text)
  if (length < 126) {
    frame[1] = length;
  } else if (length < 0x10000) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  payload.copy(frame, headerLength);
  return frame;
}
