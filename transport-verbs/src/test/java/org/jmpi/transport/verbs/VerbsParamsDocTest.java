package org.jmpi.transport.verbs;

import org.jmpi.testkit.ParamsDoc;
import org.junit.jupiter.api.Test;

class VerbsParamsDocTest
{
    @Test
    void shouldDocumentEveryVerbsParameterWithItsDefault()
    {
        ParamsDoc.assertDocumented(new VerbsTransportProvider());
    }
}
