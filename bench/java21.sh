# Sourced by the bench scripts: sets $java to the first JDK 21+ among JAVA_HOME, /usr/lib/jvm and PATH
# (a fresh machine's default java is 17), or exits.
java=""
for j in ${JAVA_HOME:+$JAVA_HOME/bin/java} $(ls -d /usr/lib/jvm/*/bin/java 2>/dev/null) java; do
  v=$("$j" -XshowSettings:properties -version 2>&1 | sed -n 's/ *java.specification.version = //p') || continue
  if [ -n "$v" ] && [ "${v%%.*}" -ge 21 ]; then java=$j; break; fi
done
[ -n "$java" ] || { echo "no JDK 21+ found" >&2; exit 1; }
