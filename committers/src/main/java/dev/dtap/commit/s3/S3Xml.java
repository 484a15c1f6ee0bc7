package dev.dtap.commit.s3;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * The little XML the requests dtap sends itself need: the root element and the text of its direct
 * children in an answer (an upload id, an ETag, an error's code and message), and escaping for the
 * body of a complete request. Documents may not declare DTDs or entities. Immutable.
 */
final class S3Xml {
  private static final XMLInputFactory FACTORY = factory();

  private final String root;
  private final Map<String, String> children;

  private S3Xml(String root, Map<String, String> children) {
    this.root = root;
    this.children = children;
  }

  private static XMLInputFactory factory() {
    XMLInputFactory f = XMLInputFactory.newFactory();
    f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
    f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
    f.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, false);
    return f;
  }

  /**
   * Reads an answer's body.
   *
   * @param body the bytes
   * @param where names the answer in a failure
   * @return the root and its children's text (the first of each name)
   * @throws IOException if the body is not well-formed XML
   */
  static S3Xml parse(byte[] body, String where) throws IOException {
    try {
      XMLStreamReader r = FACTORY.createXMLStreamReader(new ByteArrayInputStream(body));
      try {
        String root = null;
        Map<String, String> children = new HashMap<>();
        int depth = 0;
        String child = null;
        StringBuilder text = new StringBuilder();
        while (r.hasNext()) {
          int event = r.next();
          if (event == XMLStreamConstants.START_ELEMENT) {
            depth++;
            if (depth == 1) {
              root = r.getLocalName();
            } else if (depth == 2) {
              child = r.getLocalName();
              text.setLength(0);
            }
          } else if (event == XMLStreamConstants.END_ELEMENT) {
            if (depth == 2) {
              children.putIfAbsent(child, text.toString());
            }
            depth--;
          } else if (depth == 2
              && (event == XMLStreamConstants.CHARACTERS || event == XMLStreamConstants.CDATA)) {
            text.append(r.getText());
          }
        }
        if (root == null) {
          throw new IOException("Empty XML answer of " + where);
        }
        return new S3Xml(root, children);
      } finally {
        r.close();
      }
    } catch (XMLStreamException e) {
      throw new IOException("Malformed XML answer of " + where + ": " + e.getMessage(), e);
    }
  }

  String root() {
    return root;
  }

  /**
   * @return the text of the root's first child of that name
   */
  Optional<String> child(String name) {
    return Optional.ofNullable(children.get(name));
  }

  /**
   * Escapes text for an XML element.
   *
   * @param s the text
   * @return the text with &amp;, &lt;, &gt;, quotes and apostrophes as entities
   */
  static String escape(String s) {
    StringBuilder sb = new StringBuilder(s.length() + 16);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '&':
          sb.append("&amp;");
          break;
        case '<':
          sb.append("&lt;");
          break;
        case '>':
          sb.append("&gt;");
          break;
        case '"':
          sb.append("&quot;");
          break;
        case '\'':
          sb.append("&apos;");
          break;
        default:
          sb.append(c);
      }
    }
    return sb.toString();
  }
}
