package org.jmpi.transport.tcp;

import org.jmpi.testkit.ParamsDoc;
import org.junit.jupiter.api.Test;

class TcpParamsDocTest
{
    @Test
    void shouldDocumentEveryTcpParameterWithItsDefault()
    {
        ParamsDoc.assertDocumented(new TcpTransportProvider());
    }
}
