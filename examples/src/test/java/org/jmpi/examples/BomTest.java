package org.jmpi.examples;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * jmpi-bom has no parent (so importing it pins nothing but jmpi), so nothing keeps it in step with the
 * reactor but this: it manages exactly the published modules (those that do not set
 * {@code maven.deploy.skip}), at the parent's version, with the parent's licence, url and scm. The sample
 * user project (outside the reactor) must ask for this version and pass jmpi's JVM flags.
 */
class BomTest
{
    private static final Path HOME = Path.of(System.getProperty("jmpi.home", "..")).toAbsolutePath().normalize();

    private static Element pom(final Path path) throws Exception
    {
        final Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(path.toFile());
        return doc.getDocumentElement();
    }

    private static Element child(final Element parent, final String name)
    {
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling())
        {
            if (n instanceof Element e && e.getTagName().equals(name))
            {
                return e;
            }
        }
        return null;
    }

    private static String text(final Element parent, final String... path)
    {
        Element e = parent;
        for (final String name : path)
        {
            e = e == null ? null : child(e, name);
        }
        return e == null ? null : e.getTextContent().trim();
    }

    private static String resolve(final Element root, final String value)
    {
        if (value != null && value.startsWith("${") && value.endsWith("}"))
        {
            return text(root, "properties", value.substring(2, value.length() - 1));
        }
        return value;
    }

    @Test
    void shouldManageExactlyThePublishedModulesWithTheParentsVersionAndMetadata() throws Exception
    {
        final Element parent = pom(HOME.resolve("pom.xml"));
        final Element bom = pom(HOME.resolve("bom/pom.xml"));
        final Set<String> published = new TreeSet<>();
        final NodeList modules = child(parent, "modules").getElementsByTagName("module");
        for (int i = 0; i < modules.getLength(); i++)
        {
            final String module = modules.item(i).getTextContent().trim();
            final Element modulePom = pom(HOME.resolve(module).resolve("pom.xml"));
            if (!"true".equals(text(modulePom, "properties", "maven.deploy.skip")) && !module.equals("bom"))
            {
                published.add(text(modulePom, "artifactId"));
            }
        }
        final Set<String> managed = new TreeSet<>();
        final List<String> versions = new ArrayList<>();
        final NodeList deps = child(child(bom, "dependencyManagement"), "dependencies").getElementsByTagName("dependency");
        for (int i = 0; i < deps.getLength(); i++)
        {
            final Element dep = (Element)deps.item(i);
            managed.add(text(dep, "artifactId"));
            versions.add(text(dep, "version"));
        }
        assertFalse(published.isEmpty());
        assertEquals(published, managed, "jmpi-bom must manage exactly the published modules");
        versions.forEach(v -> assertEquals("${project.version}", v));
        assertEquals(text(parent, "version"), text(bom, "version"), "jmpi-bom's version");
        assertEquals(resolve(parent, text(parent, "url")), text(bom, "url"));
        assertEquals(text(parent, "licenses", "license", "name"), text(bom, "licenses", "license", "name"));
        assertEquals(text(parent, "licenses", "license", "url"), text(bom, "licenses", "license", "url"));
        assertEquals("scm:git:" + resolve(parent, "${jmpi.scm.url}"), text(bom, "scm", "connection"));
        assertEquals(resolve(parent, text(parent, "scm", "url")), text(bom, "scm", "url"));
        assertEquals(text(parent, "developers", "developer", "name"), text(bom, "developers", "developer", "name"));
    }

    @Test
    void shouldKeepTheSampleUserProjectAtThisVersionWithJmpisJvmFlags() throws Exception
    {
        final Element parent = pom(HOME.resolve("pom.xml"));
        final Element sample = pom(HOME.resolve("examples/user-project/pom.xml"));
        assertEquals(text(parent, "version"), text(sample, "properties", "jmpi.version"));
        assertEquals(String.join(" ", org.jmpi.internal.bootstrap.JvmFlags.FLAGS), text(sample, "properties", "jmpi.jvm.flags"));
    }
}
