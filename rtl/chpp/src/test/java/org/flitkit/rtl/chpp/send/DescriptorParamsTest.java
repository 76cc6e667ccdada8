package org.flitkit.rtl.chpp.send;

import org.flitkit.rtl.chpp.ChppParams;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.flitkit.hdl.Circuit;
import org.junit.jupiter.api.Test;

/** The descriptor stages' parameters: defaults, and every bad value refused with its specific message. */
class DescriptorParamsTest {

    @Test
    void defaultsAreFourSlotsAnd512ByteReads() {
        SendEngineParams d = SendEngineParams.defaults();
        assertThat(d).isEqualTo(new SendEngineParams(4, 0, 0x0100, 1, 512, 128));
        assertThat(d.withSlots(8).withMaxReadRequest(4096)).isEqualTo(new SendEngineParams(8, 0, 0x0100, 1, 4096, 128));
        assertThat(d.withMtu(16).withMtu(4096)).isEqualTo(new SendEngineParams(4, 0, 0x0100, 1, 512, 4096));
    }

    @Test
    void badValuesAreRefusedWithTheirReason() {
        assertThatThrownBy(() -> new SendEngineParams(0, 0, 0, 0, 512, 128)).hasMessage("slots 0 outside 1..32 (each slot is a 4096-byte reassembly buffer)");
        assertThatThrownBy(() -> new SendEngineParams(33, 0, 0, 0, 512, 128)).hasMessageStartingWith("slots 33 outside 1..32");
        assertThatThrownBy(() -> new SendEngineParams(4, 8, 0, 0, 512, 128)).hasMessage("processor 8 outside 0..7 (SRC_ID has 3 processor bits)");
        assertThatThrownBy(() -> new SendEngineParams(4, 0, 0x0101, 0, 512, 128))
                .hasMessage("requesterBusDevice 0x101 is not a 16-bit bus/device with function bits 2:0 zero");
        assertThatThrownBy(() -> new SendEngineParams(4, 0, 0, 8, 512, 128)).hasMessage("getTc 8 outside 0..7 (PCIe traffic class is 3 bits)");
        assertThatThrownBy(() -> new SendEngineParams(4, 0, 0, 0, 384, 128)).hasMessageStartingWith("maxReadRequest 384 is not a PCIe Max_Read_Request_Size");
        assertThatThrownBy(() -> new SendEngineParams(4, 0, 0, 0, 8192, 128)).hasMessageStartingWith("maxReadRequest 8192 is not");
        assertThatThrownBy(() -> SendEngineParams.defaults().withMtu(8))
                .hasMessage("mtu 8 is not a power of two in 16..4096 bytes (one 16-byte bus beat up to the largest payload, 4096)");
        assertThatThrownBy(() -> SendEngineParams.defaults().withMtu(96)).hasMessageStartingWith("mtu 96 is not a power of two in 16..4096");
        assertThatThrownBy(() -> SendEngineParams.defaults().withMtu(8192)).hasMessageStartingWith("mtu 8192 is not a power of two in 16..4096");
    }

    @Test
    void extractRefusesMoreFunctionsThanSrcIdNames() {
        assertThatThrownBy(() -> Circuit.elaborate(() -> new DescriptorExtract(ChppParams.paper().withFunctions(9), SendEngineParams.defaults())))
                .hasMessageContaining("functions 9 above 8: SRC_ID names the function with 3 bits");
    }
}
