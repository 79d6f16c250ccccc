package org.jmpi.transport.shm;

import org.jmpi.testkit.ParamsDoc;
import org.junit.jupiter.api.Test;

class ShmParamsDocTest
{
    @Test
    void shouldDocumentEveryShmParameterWithItsDefault()
    {
        ParamsDoc.assertDocumented(new ShmTransportProvider());
    }
}
