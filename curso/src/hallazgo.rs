//! Las clases de hallazgo (el `Hallazgo` de `error`): qué clase de problema
//! encontró una revisión del libro, de un registro de mediciones, de las
//! referencias o de la ortografía. Las pruebas distinguen los hallazgos por
//! su clase y su lugar; el mensaje es para las personas.

/// Qué clase de problema es. Las pruebas distinguen los hallazgos por su
/// tipo; el mensaje es para las personas.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Tipo {
    /// Sin clase propia (los hallazgos de la lista de ejercicios y de la verificación).
    #[default]
    General,
    // Las fuentes del libro (`revision::fuentes`).
    /// Un archivo o una carpeta que no se puede leer.
    Ilegible,
    /// Un diagrama Mermaid dentro de una cita, donde no se dibuja.
    MermaidEnCita,
    /// Un bloque de Rust que nadie compila (sin doctest, o `ignore` sin include).
    BloqueSinCompilar,
    /// Un bloque que solo incluye código de un crate, sin `ignore`.
    IncludeSinIgnore,
    /// Un `compile_fail` que no incluye un caso de `no-compila/tests/ui/`.
    CompileFailSinCaso,
    /// Un `{{#include}}` de un archivo que no existe o está fuera.
    IncludeRoto,
    /// Un `{{#include ruta:ancla}}` cuya ancla no existe.
    AnclaQueFalta,
    /// Un enlace relativo que no lleva a ningún archivo o sale del repositorio.
    EnlaceRoto,
    // Los capítulos y sus carpetas (`revision::capitulos`).
    /// Una orden `cargo run -p X` con un paquete que no existe.
    PaqueteQueNoExiste,
    /// Una ruta del repositorio entre comillas invertidas (`solutions/...`) que no existe.
    RutaQueNoExiste,
    /// A un capítulo le faltan sus notas, su tiempo, sus preguntas o su tabla.
    NotasIncompletas,
    /// Un capítulo sin su carpeta, o una carpeta sin su capítulo.
    CarpetaQueFalta,
    /// Un crate con varios programas y sin `default-run`.
    SinProgramaPorDefecto,
    /// Una prueba unitaria en un programa o una biblioteca con `test = false`:
    /// `cargo test` no la compila ni la ejecuta.
    PruebaQueNoCorre,
    // El HTML construido (`revision::html`).
    /// Un enlace del HTML a un archivo que no existe.
    EnlaceHtmlRoto,
    /// Un enlace del HTML a un ancla que no existe.
    AnclaHtmlRota,
    /// Un enlace al repositorio a un archivo que no existe.
    EnlaceAlRepositorioRoto,
    // El registro de mediciones (`mediciones`).
    /// Un registro o el archivo de máquinas que no se puede leer o no es TOML.
    RegistroIlegible,
    /// Un dato del registro mal formado: sin tipo, sin su campo, con un campo de otro tipo o desconocido.
    DatoMalFormado,
    /// Una orden de medida que no es `cargo run ... -p PAQUETE` de un paquete del espacio de trabajo.
    OrdenInvalida,
    /// Un `donde` que nombra un archivo que no existe.
    ArchivoQueNoExiste,
    /// Una máquina que no está en `curso/maquinas.toml`.
    MaquinaDesconocida,
    /// Un valor registrado dos veces.
    ValorRepetido,
    /// Una razón con valores no medidos o de magnitudes distintas.
    RazonInvalida,
    /// Un número con unidad de la prosa que ningún registro tiene.
    ValorSinRegistrar,
    /// Un valor del registro que la prosa ya no cita.
    ValorQueSobra,
    /// Una traza grabada (`[[traza]]`) mal formada, incoherente o que no cuadra con su registro.
    TrazaIncoherente,
    // Las referencias (`referencias`).
    /// Nombra un archivo de fuera del repositorio.
    ArchivoDeFuera,
    /// Cita un texto que quien lee no tiene.
    TextoOculto,
    /// Responde a un texto («la crítica») o traduce una frase suya sin citarlo en el mismo párrafo.
    DiscusionSinCita,
    /// Cita una entrada que no existe, o enlaza a referencias.md sin entrada.
    CitaRota,
    /// Una entrada que nadie cita.
    EntradaSinCitar,
    /// Una entrada sin enlace https fijado, con http, o sin ancla válida.
    EntradaMalFormada,
    // La ortografía (`ortografia`).
    /// Palabras que hunspell no reconoce.
    Ortografia,
    /// Un término del curso que no está en el glosario.
    TerminoSinGlosario,
    // Los cuestionarios (`libro::cuestionarios`).
    /// Un capítulo sin su cuestionario o sin sus directivas, o un cuestionario
    /// mal formado, con un dato que el registro no tiene o con un número sin registrar.
    CuestionarioMal,
    // La lista de ejercicios (`modelo::ejercicios`).
    /// Un nombre de ejercicio repetido o con letras no permitidas.
    NombreInvalido,
    /// Un capítulo que no empieza por `NN-`.
    CapituloInvalido,
    /// Un crate, un archivo de ejercicio o una respuesta incorrecta que no existe.
    EjercicioSinArchivo,
    /// Un ejercicio sin título, sin pistas (o con más de dos) o sin pruebas.
    EjercicioIncompleto,
    /// Una prueba que está en más de un ejercicio.
    PruebaRepetida,
    /// Andamiaje distinto en `exercises/` y `solutions/`.
    AndamiajeDistinto,
    /// Una carpeta de `exercises/` sin ejercicios en la lista.
    CarpetaSinEjercicios,
    /// Una propiedad con id repetido, sin pruebas, con pruebas ajenas o que
    /// ninguna respuesta incorrecta conocida rompe; o una prueba sin propiedad.
    PropiedadMal,
    /// Una respuesta incorrecta que no se puede leer, sin explicación, o que
    /// dice romper una propiedad que no existe.
    IncorrectaMal,
    // La verificación de los ejercicios (`verificacion`).
    /// Algo impidió verificar: una variante que no se preparó, cargo que no arrancó.
    SinVerificar,
    /// La solución no compila, no pasa sus pruebas o su demo falla.
    SolucionFalla,
    /// Las pruebas del capítulo no son exactamente las de la lista.
    PruebasDistintas,
    /// El código inicial compila cuando no debe, o no compila cuando debe.
    InicialCompilaMal,
    /// Con el código inicial, las pruebas del ejercicio pasan (o no corren todas, o se cuelgan).
    InicialNoFalla,
    /// Una respuesta incorrecta conocida que pasa las pruebas o ni compila.
    IncorrectaNoRechazada,
    /// Una respuesta incorrecta que ya no se aplica sobre su solución.
    IncorrectaNoSeAplica,
    /// Una respuesta incorrecta rechazada, pero sin que falle ninguna prueba
    /// de la propiedad que dice romper.
    IncorrectaRechazadaPorOtra,
    /// Un ejercicio que, resuelto solo (con sus vecinos sin resolver), no pasa.
    NoPasaSolo,
    /// Un veredicto que cambia de una repetición a otra.
    Inestable,
    // Las pruebas de los ejercicios (`revision::aserciones`).
    /// Una aserción (`assert!`, `assert_eq!`, `assert_ne!`) sin mensaje para quien aprende.
    AsercionSinMensaje,
}
