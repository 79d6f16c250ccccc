package org.jmpi.transport.pvas;

import org.jmpi.testkit.ParamsDoc;
import org.junit.jupiter.api.Test;

class PvasParamsDocTest
{
    @Test
    void shouldDocumentEveryPvasParameterWithItsDefault()
    {
        ParamsDoc.assertDocumented(new PvasTransportProvider());
    }
}
