package org.flitkit.rtl.nic;

import static org.flitkit.hdl.Hdl.*;

import org.flitkit.hdl.Bundle;
import org.flitkit.hdl.UInt;
import org.flitkit.formats.th2.NicHost;
import org.flitkit.formats.th2.Th2;

/** A descriptor as {@link DescFetch} read it, from VP {@code vp}'s queue slot {@code index}; status 0 = read fine. */
public final class FetchedDesc extends Bundle {
    public final UInt vp = UInt(6);
    public final UInt index = UInt(NicHost.INDEX_BITS);
    public final UInt desc = UInt(Th2.DESCRIPTOR_BITS);
    /** 0, a PCIe completion status (UR, CA), {@link DescFetch#BAD_COMPLETION} or {@link DescFetch#TIMEOUT}. */
    public final UInt status = UInt(3);
}
